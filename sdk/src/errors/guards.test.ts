import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  NetworkError,
  TimeoutError,
  WebhookSchedulerError,
  WebhookVerificationError,
  isNetworkError,
  isTimeoutError,
  isWebhookSchedulerError,
  isWebhookVerificationError,
} from '../index.js';

type ErrorClass = new (...args: never[]) => Error;

const guards: {
  name: string;
  guard: (value: unknown) => boolean;
  Class: ErrorClass;
  args: unknown[];
  module: string;
}[] = [
  {
    name: 'WebhookSchedulerError',
    guard: isWebhookSchedulerError,
    Class: WebhookSchedulerError,
    args: [{ status: 500, code: 'INTERNAL_SERVER_ERROR', message: 'x' }],
    module: './webhook-scheduler-error.js',
  },
  {
    name: 'TimeoutError',
    guard: isTimeoutError,
    Class: TimeoutError,
    args: [10],
    module: './timeout-error.js',
  },
  {
    name: 'NetworkError',
    guard: isNetworkError,
    Class: NetworkError,
    args: ['x'],
    module: './network-error.js',
  },
  {
    name: 'WebhookVerificationError',
    guard: isWebhookVerificationError,
    Class: WebhookVerificationError,
    args: ['invalid_signature', 'x'],
    module: './webhook-verification-error.js',
  },
];

const make = (Class: ErrorClass, args: unknown[]): Error => Reflect.construct(Class, args) as Error;

describe.each(guards)('is$name', ({ name, guard, Class, args, module }) => {
  it('accepts its own error and refuses the other SDK errors', () => {
    for (const other of guards) expect(guard(make(other.Class, other.args))).toBe(other.name === name);
  });

  it('accepts an error made by a second copy of the SDK, where instanceof fails', async () => {
    // A query string makes vitest load the module again: a second class, as with two installed copies.
    const copy = (await import(/* @vite-ignore */ `${module}?copy`)) as Record<string, ErrorClass>;
    const error = make(copy[name]!, args);

    expect(error instanceof Class).toBe(false);
    expect(guard(error)).toBe(true);
  });

  it('accepts an error from another realm', () => {
    const foreign: unknown = vm.runInNewContext(
      `const error = new Error('x'); Object.defineProperty(error, Symbol.for('@webhook-scheduler/sdk.${name}'), { value: true }); error`,
    );

    expect(foreign instanceof Error).toBe(false);
    expect(guard(foreign)).toBe(true);
  });

  it('refuses plain errors and non-objects', () => {
    expect(guard(new Error(name))).toBe(false);
    expect(guard(name)).toBe(false);
    expect(guard(undefined)).toBe(false);
  });
});
