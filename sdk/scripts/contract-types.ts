import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import * as contract from '@webhook-scheduler/contract';

/**
 * Generates sdk/src/contract-types.ts: the contract's zod-inferred types printed as plain TypeScript,
 * so the published .d.ts needs neither the contract nor zod. `npm run generate -w sdk` writes it;
 * contract-types.test.ts fails when the committed file is stale.
 */

const SDK_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TARGET = path.join(SDK_DIR, 'src', 'contract-types.ts');

interface Generated {
  name: string;
  /** The type expression, evaluated against the contract in a virtual file. */
  from: string;
  doc: string;
  /** The runtime zod object whose fields' `.describe()` texts become property docs. */
  schema?: { shape: Record<string, { description?: string | undefined }> };
}

// Order matters: a later type's nested shapes are replaced by the names of earlier ones.
const TYPES: Generated[] = [
  { name: 'ErrorCode', from: 'C.ErrorCode', doc: 'One of the machine-readable error codes of the API.' },
  {
    name: 'ValidationIssue',
    from: 'C.ValidationIssue',
    doc: 'One field problem of a `VALIDATION_ERROR`.',
    schema: contract.ValidationIssue,
  },
  { name: 'HttpMethod', from: 'C.HttpMethod', doc: 'An HTTP method a webhook can be sent with.' },
  {
    name: 'EventStatus',
    from: 'C.EventStatus',
    doc: 'The state of an event: `pending → processing → success | failed`.',
  },
  {
    name: 'BackoffType',
    from: 'C.BackoffType',
    doc: 'How the delay grows from one retry to the next.',
  },
  {
    name: 'RetryConfig',
    from: 'C.RetryConfig',
    doc: 'How failed webhook calls are retried, as the API returns it.',
    schema: contract.RetryConfig,
  },
  {
    name: 'RetryConfigInput',
    from: 'C.RetryConfigInput',
    doc: 'How failed webhook calls are retried, as sent: `backoffType` defaults to `exponential`.',
    schema: contract.RetryConfigInput,
  },
  {
    name: 'Pagination',
    from: 'C.Pagination',
    doc: 'Where a page sits in a list.',
    schema: contract.Pagination,
  },
  { name: 'CronRunStatus', from: 'C.CronRunStatus', doc: 'How an occurrence of a cron ended.' },
  { name: 'PausedReason', from: 'C.PausedReason', doc: 'Why the service paused a cron.' },
  { name: 'Cron', from: 'C.Cron', doc: 'A recurring webhook.', schema: contract.Cron },
  {
    name: 'CronInput',
    from: 'C.CronInput',
    doc: 'The body of `crons.create` and `crons.update`. `update` replaces the whole cron: omitted fields take their defaults.',
    schema: contract.CronInput,
  },
  {
    name: 'CronPatch',
    from: 'C.CronPatch',
    doc: 'The body of `crons.patch`: any fields of `CronInput`; fields left out keep their value.',
    schema: contract.CronPatch,
  },
  {
    name: 'CronListQuery',
    from: 'Partial<z.output<typeof C.CronListQuery>>',
    doc: 'Filters and paging of `crons.list`.',
    schema: contract.CronListQuery,
  },
  {
    name: 'Event',
    from: 'C.Event',
    doc: 'One webhook call and, once made, its outcome.',
    schema: contract.Event,
  },
  {
    name: 'EventInput',
    from: 'C.EventInput',
    doc: 'The body of `events.create` and `events.update`. `update` replaces the whole event: omitted fields take their defaults.',
    schema: contract.EventInput,
  },
  {
    name: 'EventListQuery',
    from: 'Partial<z.output<typeof C.EventListQuery>>',
    doc: 'Filters and paging of `events.list`.',
    schema: contract.EventListQuery,
  },
  {
    name: 'EventReplayFilter',
    from: 'C.EventReplayFilter',
    doc: 'The body of `events.replayMany`: which finished events of the team to replay.',
    schema: contract.EventReplayFilter,
  },
  {
    name: 'EventReplayResult',
    from: 'C.EventReplayResult',
    doc: 'What `events.replayMany` resolves to: how many events were replayed and the first 100 new ones.',
    schema: contract.EventReplayResult,
  },
  {
    name: 'RateLimitPer',
    from: 'C.RateLimitPer',
    doc: 'The window a destination’s rate limit counts calls in.',
  },
  {
    name: 'DestinationRateLimit',
    from: 'C.DestinationRateLimit',
    doc: 'At most `requests` calls of the team start to the origin in any window of one `per`.',
    schema: contract.DestinationRateLimit,
  },
  { name: 'CircuitState', from: 'C.CircuitState', doc: 'The state of a destination’s circuit breaker.' },
  {
    name: 'Destination',
    from: 'C.Destination',
    doc: 'An origin the team’s webhooks call: its health, its waiting and running calls, and the team’s settings for it.',
    schema: contract.Destination,
  },
  {
    name: 'DestinationPatch',
    from: 'C.DestinationPatch',
    doc: 'The body of `destinations.patch`: fields left out keep their value, `null` clears one.',
    schema: contract.DestinationPatch,
  },
  {
    name: 'DestinationListQuery',
    from: 'Partial<z.output<typeof C.DestinationListQuery>>',
    doc: 'Order and paging of `destinations.list`.',
    schema: contract.DestinationListQuery,
  },
  {
    name: 'EventFailedAlertData',
    from: 'C.EventFailedAlertData',
    doc: 'What an `event.failed` alert says: the event whose final attempt failed.',
    schema: contract.EventFailedAlertData,
  },
  {
    name: 'EventFailedAlert',
    from: 'C.EventFailedAlert',
    doc: 'The alert sent once per event whose final attempt failed.',
    schema: contract.EventFailedAlert,
  },
  {
    name: 'CronPausedAlertData',
    from: 'C.CronPausedAlertData',
    doc: 'What a `cron.paused` alert says: the cron the service deactivated.',
    schema: contract.CronPausedAlertData,
  },
  {
    name: 'CronPausedAlert',
    from: 'C.CronPausedAlert',
    doc: 'The alert sent when a cron reached its `pause_after_failures` and was deactivated.',
    schema: contract.CronPausedAlert,
  },
  {
    name: 'CircuitOpenedAlertData',
    from: 'C.CircuitOpenedAlertData',
    doc: 'What a `destination.circuit_opened` alert says.',
    schema: contract.CircuitOpenedAlertData,
  },
  {
    name: 'CircuitOpenedAlert',
    from: 'C.CircuitOpenedAlert',
    doc: 'The alert sent when the circuit to an origin opened.',
    schema: contract.CircuitOpenedAlert,
  },
  {
    name: 'CircuitClosedAlertData',
    from: 'C.CircuitClosedAlertData',
    doc: 'What a `destination.circuit_closed` alert says.',
    schema: contract.CircuitClosedAlertData,
  },
  {
    name: 'CircuitClosedAlert',
    from: 'C.CircuitClosedAlert',
    doc: 'The alert sent when the circuit to an origin closed again.',
    schema: contract.CircuitClosedAlert,
  },
  {
    name: 'AlertMessage',
    from: 'C.AlertMessage',
    doc: 'Any message a team’s alert URL receives, told apart by `type`.',
  },
  { name: 'AlertType', from: 'C.AlertType', doc: 'The `type` of an alert message.' },
];

const HEADER = `// Generated from @webhook-scheduler/contract by sdk/scripts/contract-types.ts: do not edit.
// Run \`npm run generate -w sdk\` after changing the contract.

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
`;

function virtualSource(): string {
  const lines = TYPES.map((type) => `export type ${type.name} = ${type.from};`);
  return [
    "import type { z } from 'zod';",
    "import type * as C from '@webhook-scheduler/contract';",
    ...lines,
    'export type __Json = z.output<typeof C.JsonValue>;',
  ].join('\n');
}

function createChecker(): { checker: ts.TypeChecker; file: ts.SourceFile } {
  const fileName = path.join(SDK_DIR, 'scripts', '__contract-types__.ts');
  const options: ts.CompilerOptions = {
    strict: true,
    exactOptionalPropertyTypes: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: [],
    noEmit: true,
  };
  const host = ts.createCompilerHost(options);
  const original = host.getSourceFile.bind(host);
  host.getSourceFile = (name, languageVersion, ...rest) =>
    name === fileName
      ? ts.createSourceFile(name, virtualSource(), languageVersion, true)
      : original(name, languageVersion, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === fileName || fileExists(name);
  const program = ts.createProgram([fileName], options, host);
  const problems = ts.getPreEmitDiagnostics(program);
  if (problems.length > 0) {
    throw new Error(ts.formatDiagnostics(problems, host));
  }
  const file = program.getSourceFile(fileName);
  if (!file) throw new Error('the virtual source file was not created');
  return { checker: program.getTypeChecker(), file };
}

const FLAGS: ts.TypeFormatFlags =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType |
  ts.TypeFormatFlags.InTypeAlias;

/** What printing needs: the checker, the contract's JSON type, and the shapes already named. */
interface Printer {
  checker: ts.TypeChecker;
  json: ts.Type;
  /** Printed shape → the generated name that replaces it in later types. */
  named: Map<string, string>;
}

function constituents(type: ts.Type): ts.Type[] {
  return type.isUnion() ? type.types : [type];
}

/**
 * The contract's recursive Json alias is not exported, so the checker prints it expanded (and cut
 * off with `any`); a type equivalent to it, plus perhaps `undefined`, prints as JsonValue.
 */
function jsonText({ checker, json }: Printer, type: ts.Type): string | undefined {
  const members = constituents(type);
  const defined = members.filter((member) => !(member.flags & ts.TypeFlags.Undefined));
  const isJson =
    checker.isTypeAssignableTo(json, type) &&
    defined.every((member) => checker.isTypeAssignableTo(member, json));
  if (!isJson) return undefined;
  return defined.length < members.length ? 'JsonValue | undefined' : 'JsonValue';
}

function printType(printer: Printer, type: ts.Type, node: ts.Node): string {
  const json = jsonText(printer, type);
  if (json) return json;
  let text = printer.checker.typeToString(type, node, FLAGS);
  // Longest first: a shape that holds a shorter named one (RetryConfig holds BackoffType) is
  // replaced whole before the shorter one would break it up.
  const byLength = [...printer.named].sort(([a], [b]) => b.length - a.length);
  for (const [shape, name] of byLength) text = text.split(shape).join(name);
  return text;
}

function printDeclaration(printer: Printer, alias: ts.TypeAliasDeclaration, generated: Generated): string {
  const { checker, named } = printer;
  const type = checker.getTypeAtLocation(alias.name);
  const doc = `/** ${generated.doc} */\n`;
  if (!generated.schema) {
    const text = printType(printer, type, alias);
    named.set(text, generated.name);
    return `${doc}export type ${generated.name} = ${text};`;
  }
  const properties = Object.keys(generated.schema.shape).map((key) => {
    const property = type.getProperty(key);
    if (!property) throw new Error(`${generated.name} has no property ${key}`);
    return property;
  });
  const members = properties.map((property) => {
    const propertyType = checker.getTypeOfSymbolAtLocation(property, alias);
    const optional = (property.flags & ts.SymbolFlags.Optional) !== 0 ? '?' : '';
    const description = generated.schema?.shape[property.name]?.description;
    const comment = description ? `  /** ${description} */\n` : '';
    return `${comment}  ${property.name}${optional}: ${printType(printer, propertyType, alias)};`;
  });
  named.set(checker.typeToString(type, alias, FLAGS), generated.name);
  return `${doc}export interface ${generated.name} {\n${members.join('\n')}\n}`;
}

/** The generated file's text (before formatting). */
export function generateContractTypes(): string {
  const { checker, file } = createChecker();
  const aliases = file.statements.filter(ts.isTypeAliasDeclaration);
  const json = aliases.find((alias) => alias.name.text === '__Json');
  if (!json) throw new Error('the JSON type is missing');
  const printer: Printer = { checker, json: checker.getTypeAtLocation(json.name), named: new Map() };
  const declarations = aliases
    .filter((alias) => alias !== json)
    .map((alias) => {
      const generated = TYPES.find((type) => type.name === alias.name.text);
      if (!generated) throw new Error(`no entry for ${alias.name.text}`);
      return printDeclaration(printer, alias, generated);
    });
  return `${HEADER}\n${declarations.join('\n\n')}\n`;
}

/** The generated file's text, formatted with the repository's Prettier settings. */
export async function renderContractTypes(): Promise<string> {
  const prettier = await import('prettier');
  const config = (await prettier.resolveConfig(TARGET)) ?? {};
  return prettier.format(generateContractTypes(), { ...config, parser: 'typescript' });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { writeFile } = await import('node:fs/promises');
  await writeFile(TARGET, await renderContractTypes());
  process.stdout.write(`wrote ${path.relative(process.cwd(), TARGET)}\n`);
}
