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
    expect(operations).toHaveLength(18);
    for (const operation of operations) {
      expect(operation.operationId).toMatch(/^[a-z]+(Cron|Event|Destination)s?$/);
      expect(operation.summary, operation.operationId).toBeTruthy();
      expect(operation.description, operation.operationId).toBeTruthy();
    }
  });

  it('gives operations distinct ids', () => {
    expect(new Set(operations.map((operation) => operation.operationId)).size).toBe(operations.length);
  });

  it('marks every request body required, with a description of what it is', () => {
    const bodies = operations.flatMap((operation) => (operation.requestBody ? [operation.requestBody] : []));
    expect(bodies).toHaveLength(8);
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

  // openapi-python-client made three identical enum classes of an inline nullable last_status: a
  // generator makes one type per named schema, but one per use of an inline enum.
  it('names every enum of a body and refers to it, a nullable one as anyOf [$ref, null]', () => {
    const inline: string[] = [];
    const visit = (node: unknown, where: string): void => {
      if (typeof node !== 'object' || node === null) return;
      if ('enum' in node) inline.push(where);
      for (const [key, child] of Object.entries(node)) visit(child, `${where}/${key}`);
    };
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      const { enum: _named, ...rest } = schema as Record<string, unknown>;
      visit(rest, `#/components/schemas/${name}`);
    }
    for (const [path, byMethod] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(byMethod)) {
        visit(operation.requestBody, `${method} ${path} request`);
        visit(operation.responses, `${method} ${path} responses`);
      }
    }
    expect(inline).toEqual([]);
    const cron = document.components.schemas.Cron as { properties: Record<string, unknown> };
    expect(cron.properties.last_status).toMatchObject({
      anyOf: [{ $ref: '#/components/schemas/CronRunStatus' }, { type: 'null' }],
    });
    expect(cron.properties.paused_reason).toMatchObject({
      anyOf: [{ $ref: '#/components/schemas/PausedReason' }, { type: 'null' }],
    });
  });

  it('names each enum once', () => {
    const enums = Object.values(document.components.schemas).flatMap((schema) =>
      'enum' in (schema as object) ? [JSON.stringify((schema as { enum: unknown }).enum)] : [],
    );
    expect(enums.length).toBeGreaterThan(5);
    expect(new Set(enums).size).toBe(enums.length);
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
