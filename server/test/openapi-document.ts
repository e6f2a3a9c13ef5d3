import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ApiResponse } from './harness.js';

interface Operation {
  operationId: string;
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

const require = createRequire(import.meta.url);
/** Where the committed document is: what users download and generate clients from. */
export const openApiPath = require.resolve('@webhook-scheduler/docs/openapi.json');
/** The committed OpenAPI document, as users get it. */
export const openApiDocument = JSON.parse(readFileSync(openApiPath, 'utf8')) as Document;

// The document's refs point into components; Ajv gets them as the $defs of one schema of their own.
const COMPONENTS_ID = 'https://webhook-scheduler.test/components.json';
const toAjvRefs = (schema: unknown): unknown =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${COMPONENTS_ID}#/$defs/`));

/** One compiled validator per documented operation and status, keyed `METHOD /path status`. */
export interface ResponseValidators {
  operationIdOf(method: string, template: string): string;
  /** Validates a response against the document; undocumented statuses and bodies fail. */
  check(method: string, template: string, response: ApiResponse): { operationId: string; errors: string[] };
  /** `operationId status` of every documented JSON response. */
  documented(): string[];
}

/**
 * Compiles every response schema of the committed document with Ajv 8 in strict mode (JSON Schema
 * 2020-12, the dialect of OpenAPI 3.1); compiling throws on any schema Ajv cannot take as written.
 */
export function compileResponseValidators(document: Document = openApiDocument): ResponseValidators {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: toAjvRefs(document.components.schemas) });
  const validators = new Map<string, ValidateFunction>();
  const ids = new Map<string, string>();
  for (const [template, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      ids.set(`${method.toUpperCase()} ${template}`, operation.operationId);
      for (const [status, response] of Object.entries(operation.responses)) {
        const schema = response.content?.['application/json']?.schema;
        if (schema)
          validators.set(`${operation.operationId} ${status}`, ajv.compile(toAjvRefs(schema) as object));
      }
    }
  }
  const operationIdOf = (method: string, template: string) => {
    const id = ids.get(`${method} ${template}`);
    if (!id) throw new Error(`the document has no operation ${method} ${template}`);
    return id;
  };
  return {
    operationIdOf,
    documented: () => [...validators.keys()],
    check(method, template, response) {
      const operationId = operationIdOf(method, template);
      const validate = validators.get(`${operationId} ${response.status}`);
      if (!validate) return { operationId, errors: [`status ${response.status} is not documented`] };
      if (validate(response.body)) return { operationId, errors: [] };
      const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
      return { operationId, errors };
    },
  };
}
