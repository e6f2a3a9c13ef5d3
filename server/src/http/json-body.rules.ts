import type { ValidationIssue } from '@webhook-scheduler/contract';

/**
 * Deepest nesting of arrays and objects a body may have. Validation and serialization recurse, so a
 * deeper body (a 1 MB body can nest half a million levels) would exhaust the stack and answer 500.
 */
export const MAX_JSON_DEPTH = 64;

/** Largest integer JSON.parse keeps exactly (2^53 − 1); past it, integers are silently rounded. */
const MAX_EXACT_INTEGER = Number.MAX_SAFE_INTEGER;

/**
 * A number JSON.parse would silently change, put in its place by `markChangedNumbers` so that the
 * walk can report it with its path.
 */
export class ChangedNumber {
  constructor(readonly problem: string) {}
}

/** Why JSON.parse's `value` differs from the literal `source`, or undefined when it does not. */
export function numberProblem(value: number, source: string): string | undefined {
  if (!Number.isFinite(value)) return `${source} is out of range for a JSON number`;
  const mantissa = source.split(/[eE]/)[0] ?? '';
  if (value === 0 && /[1-9]/.test(mantissa)) return `${source} is too small to be stored (it would be 0)`;
  if (/^-?\d+$/.test(source) && Math.abs(value) > MAX_EXACT_INTEGER) {
    return `${source} is an integer beyond ±${MAX_EXACT_INTEGER}, which cannot be stored exactly; send it as a string`;
  }
  return undefined;
}

/**
 * Whether the JSON text may hold a number JSON.parse changes: 16 digits in a row (integers up to
 * 15 digits are exact) or a 3-digit exponent. Cheap, so the slow reviver runs only on such bodies.
 */
export function mayHoldChangedNumbers(text: string): boolean {
  return /\d{16}|[eE][+-]?\d{3}/.test(text);
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
