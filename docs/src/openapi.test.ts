import { readFileSync } from 'node:fs';
import { contract, errorResponses } from '@webhook-scheduler/contract';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { EXAMPLES } from './examples.js';
import { buildOpenApiDocument } from './openapi.js';

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  requestBody?: { required?: boolean; description?: string; content: Record<string, { example?: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { example?: unknown }> }>;
}

const document = buildOpenApiDocument() as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};
const operations = Object.values(document.paths).flatMap((byMethod) => Object.values(byMethod));

function route(key: string) {
  const [group, name] = key.split('.') as ['crons' | 'events', string];
  const found = (contract[group] as Record<string, { body?: unknown; responses: Record<number, unknown> }>)[
    name
  ];
  if (!found) throw new Error(`no route ${key}`);
  return found;
}

function schemaFor(key: string, status: number): z.ZodTypeAny {
  const own = route(key).responses[status];
  return (own ?? errorResponses[status as keyof typeof errorResponses]) as z.ZodTypeAny;
}

describe('docs/openapi.json', () => {
  it('matches the document generated from the contract (run `npm run generate -w docs` when it does not)', () => {
    const committed: unknown = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));
    expect(committed).toEqual(buildOpenApiDocument());
  });

  it('gives every operation an id, a summary and a description', () => {
    expect(operations).toHaveLength(14);
    for (const operation of operations) {
      expect(operation.operationId).toMatch(/^[a-z]+(Cron|Event)s?$/);
      expect(operation.summary, operation.operationId).toBeTruthy();
      expect(operation.description, operation.operationId).toBeTruthy();
    }
  });

  it('gives operations distinct ids', () => {
    expect(new Set(operations.map((operation) => operation.operationId)).size).toBe(operations.length);
  });

  it('marks every request body required, with a description of what it is', () => {
    const bodies = operations.flatMap((operation) => (operation.requestBody ? [operation.requestBody] : []));
    expect(bodies).toHaveLength(6);
    for (const body of bodies) {
      expect(body.required).toBe(true);
      expect(body.description).toMatch(/^The .{20,}/);
    }
  });

  it('refers to every named schema, so each shape the contract changes stays named', () => {
    const text = JSON.stringify(document);
    for (const name of Object.keys(document.components.schemas)) {
      expect(text, name).toContain(`"$ref":"#/components/schemas/${name}"`);
    }
  });

  it('names the shared shapes and inlines none of them', () => {
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        'Event',
        'EventInput',
        'Cron',
        'CronInput',
        'ErrorResponse',
        'Pagination',
        'RetryConfig',
      ]),
    );
    const paths = JSON.stringify(document.paths);
    expect(paths).not.toContain('"properties"');
    expect(paths).toContain('"$ref":"#/components/schemas/ErrorResponse"');
  });

  it('says nullability the OpenAPI 3.1 way, never with nullable', () => {
    expect(JSON.stringify(document)).not.toContain('"nullable"');
  });

  it('has an example for every request body and every response body', () => {
    for (const operation of operations) {
      for (const media of Object.values(operation.requestBody?.content ?? {})) {
        expect(media.example, `${operation.operationId} request`).toBeDefined();
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        expect(response.description).not.toBe(status);
        for (const media of Object.values(response.content ?? {})) {
          expect(media.example, `${operation.operationId} ${status}`).toBeDefined();
        }
      }
    }
  });
});

describe('the examples', () => {
  it.each(Object.entries(EXAMPLES))('of %s are valid against the contract', (key, examples) => {
    const { body } = route(key);
    if (typeof body === 'object' && body !== null)
      expect((body as z.ZodTypeAny).safeParse(examples.request).error?.issues).toBeUndefined();
    else expect(examples.request).toBeUndefined();
    for (const [status, example] of Object.entries(examples.responses)) {
      const result = schemaFor(key, Number(status)).safeParse(example);
      expect(result.error?.issues, `${key} ${status}`).toBeUndefined();
    }
  });
});
