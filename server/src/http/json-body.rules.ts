import type { ValidationIssue } from '@webhook-scheduler/contract';

/**
 * Deepest nesting of arrays and objects a body may have. Validation and serialization recurse, so a
 * deeper body (a 1 MB body can nest half a million levels) would exhaust the stack and answer 500.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * A number JSON.parse would silently change, put in its place by `markChangedNumbers` so that the
 * walk can report it with its path.
 */
export class ChangedNumber {
  constructor(readonly problem: string) {}
}

/**
 * A decimal literal's value in one spelling: sign, significant digits, exponent ("-1.50e2" and
 * "-150" are both "-15e1"). Exact, whatever the number of digits.
 */
function decimalValue(literal: string): string {
  const match = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (!match) return literal;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  const digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return '0';
  const significant = digits.replace(/0+$/, '');
  const power = Number(exponent) - fraction.length + (digits.length - significant.length);
  return `${sign}${significant}e${power}`;
}

/**
 * Why the number JSON.parse made of the literal `source` is not the number sent, or undefined when
 * it is. The service stores and sends `String(value)`, the shortest spelling of the nearest double:
 * "0.1", "1.50" or "1152921504606847000" come back as sent; "1e400", "1e-400",
 * "12345678901234567890" or "3.14159265358979323846" would not.
 */
export function numberProblem(value: number, source: string): string | undefined {
  if (!Number.isFinite(value)) return `${source} is out of range for a JSON number`;
  if (decimalValue(source) === decimalValue(String(value))) return undefined;
  if (value === 0) return `${source} is too small to be stored (it would become 0)`;
  return `${source} cannot be stored exactly (it would become ${String(value)}); send it as a string`;
}

/**
 * Whether the JSON text may hold a number JSON.parse changes: 16 digits (a number of at most 15
 * significant digits and a 2-digit exponent is kept exactly) or a 3-digit exponent. Cheap, so the
 * slow reviver runs only on such bodies.
 */
export function mayHoldChangedNumbers(text: string): boolean {
  return /\d[\d.]{15}|[eE][+-]?\d{3}/.test(text);
}

/** A JSON.parse reviver that replaces each number the parse changed with a `ChangedNumber`. */
export function markChangedNumbers(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value !== 'number' || context?.source === undefined) return value;
  const problem = numberProblem(value, context.source);
  return problem === undefined ? value : new ChangedNumber(problem);
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why PostgreSQL cannot store this string (in `text` or `jsonb`), or undefined when it can. */
export function unstorableStringProblem(value: string): string | undefined {
  if (value.includes('\u0000')) return 'the NUL character (U+0000)';
  if (LONE_SURROGATE.test(value)) return 'an unpaired UTF-16 surrogate (such as \\ud800)';
  return undefined;
}

interface Node {
  value: unknown;
  depth: number;
  key: string | number | undefined;
  parent: Node | undefined;
}

function pathOf(node: Node): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Node | undefined = node; at?.key !== undefined; at = at.parent) path.unshift(at.key);
  return path;
}

function leafProblem(value: unknown): string | undefined {
  if (value instanceof ChangedNumber) return value.problem;
  if (typeof value === 'number' && !Number.isFinite(value)) return 'is out of range for a JSON number';
  if (typeof value !== 'string') return undefined;
  const problem = unstorableStringProblem(value);
  return problem && `must not contain ${problem}, which cannot be stored`;
}

function keyProblem(key: string): string | undefined {
  if (key === '__proto__') return 'the key "__proto__" is not accepted';
  const problem = unstorableStringProblem(key);
  return problem && `keys must not contain ${problem}, which cannot be stored`;
}

/**
 * What the schemas and the database cannot be trusted with in a parsed JSON body: nesting deeper
 * than `maxDepth`; `__proto__` keys, which zod's records silently drop (a payload would be delivered
 * altered); strings and keys PostgreSQL refuses (NUL, unpaired surrogates); and numbers the parse
 * changed (non-finite ones, and `ChangedNumber`s). Iterative, so it cannot overflow the stack itself.
 */
export function jsonBodyProblem(body: unknown, maxDepth: number): ValidationIssue | undefined {
  const stack: Node[] = [{ value: body, depth: 0, key: undefined, parent: undefined }];
  for (let node = stack.pop(); node; node = stack.pop()) {
    const { value, depth } = node;
    const leaf = leafProblem(value);
    if (leaf) return { path: pathOf(node), message: leaf };
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= maxDepth) {
      return { path: pathOf(node).slice(0, 1), message: `must not nest deeper than ${maxDepth} levels` };
    }
    const isArray = Array.isArray(value);
    for (const [key, child] of Object.entries(value)) {
      const problem = isArray ? undefined : keyProblem(key);
      if (problem) return { path: [...pathOf(node), key], message: problem };
      stack.push({ value: child, depth: depth + 1, key: isArray ? Number(key) : key, parent: node });
    }
  }
  return undefined;
}
