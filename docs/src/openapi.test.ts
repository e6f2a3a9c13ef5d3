import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './openapi.js';

describe('docs/openapi.json', () => {
  it('matches the document generated from the contract (run `npm run generate -w docs` when it does not)', () => {
    const committed: unknown = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));
    expect(committed).toEqual(buildOpenApiDocument());
  });
});
