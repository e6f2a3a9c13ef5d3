import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TARGET, renderContractTypes } from './contract-types.js';

describe('sdk/src/contract-types.ts', () => {
  it('matches the types generated from the contract (run `npm run generate -w sdk` when it does not)', async () => {
    expect(readFileSync(TARGET, 'utf8')).toBe(await renderContractTypes());
  }, 30_000);
});
