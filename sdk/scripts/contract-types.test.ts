import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TARGET, renderContractTypes } from './contract-types.js';

describe('sdk/src/contract-types.ts', () => {
  // Building a TypeScript program over the contract takes ~8 s of CPU: on a shared, loaded machine
  // that was over 30 s of wall time. The budget only stops a hang.
  it('matches the types generated from the contract (run `npm run generate -w sdk` when it does not)', async () => {
    expect(readFileSync(TARGET, 'utf8')).toBe(await renderContractTypes());
  }, 180_000);
});
