import {
  type BackoffType,
  type Contract,
  type CronRunStatus,
  type PausedReason,
  contract,
} from '@webhook-scheduler/contract';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { type WebhookSchedulerClient, createClient } from './index.js';
import type * as Sdk from './index.js';

// Type-level checks: `npm run typecheck` fails when they do not hold. Mutual assignability rather
// than expectTypeOf's deep equality, which cannot compare the recursive JSON type.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

type Methods<Group extends keyof Contract> = keyof WebhookSchedulerClient[Group];
type Body<
  Group extends keyof Contract,
  Key extends keyof Contract[Group],
  Status extends number,
> = Contract[Group][Key] extends { responses: Record<Status, infer Schema extends z.ZodTypeAny> }
  ? z.infer<Schema>
  : never;
type Data<Group extends keyof Contract, Key extends keyof Contract[Group], Status extends number> =
  Body<Group, Key, Status> extends { data: infer Data } ? Data : never;
type Returns<
  Group extends keyof Contract,
  Key extends Methods<Group>,
> = WebhookSchedulerClient[Group][Key] extends (...args: never[]) => Promise<infer Result> ? Result : never;

describe('the client mirrors the contract', () => {
  it('has a method for every contract route, in types and at run time', () => {
    expectTypeOf<Exclude<keyof Contract['crons'], Methods<'crons'>>>().toEqualTypeOf<never>();
    expectTypeOf<Exclude<keyof Contract['events'], Methods<'events'>>>().toEqualTypeOf<never>();

    const client = createClient({ baseUrl: 'http://localhost', apiKey: 'whs_x' });
    for (const group of ['crons', 'events'] as const) {
      const methods = Object.keys(client[group]);
      expect(methods).toEqual(expect.arrayContaining(Object.keys(contract[group])));
      expect(methods.filter((method) => !(method in contract[group]))).toEqual(['listAll']);
    }
  });

  it('returns the contract’s response types', () => {
    expectTypeOf<Same<Returns<'crons', 'list'>, Body<'crons', 'list', 200>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Returns<'crons', 'create'>, Data<'crons', 'create', 201>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Returns<'crons', 'get'>, Data<'crons', 'get', 200>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Returns<'crons', 'update'>, Data<'crons', 'update', 200>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Returns<'crons', 'delete'>, Data<'crons', 'delete', 200>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Returns<'events', 'list'>, Body<'events', 'list', 200>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Returns<'events', 'create'>, Data<'events', 'create', 201>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Returns<'events', 'get'>, Data<'events', 'get', 200>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Returns<'events', 'update'>, Data<'events', 'update', 200>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Returns<'events', 'delete'>, Data<'events', 'delete', 200>>>().toEqualTypeOf<true>();
    expectTypeOf<
      Same<Returns<'events', 'createMany'>, Data<'events', 'createMany', 201>>
    >().toEqualTypeOf<true>();
    expectTypeOf<Same<Returns<'events', 'replay'>, Data<'events', 'replay', 201>>>().toEqualTypeOf<true>();
    expectTypeOf<
      Same<Returns<'events', 'replayMany'>, Body<'events', 'replayMany', 201>>
    >().toEqualTypeOf<true>();
    expectTypeOf<Same<Returns<'crons', 'patch'>, Data<'crons', 'patch', 200>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Returns<'crons', 'trigger'>, Data<'crons', 'trigger', 201>>>().toEqualTypeOf<true>();
  });

  it('accepts the contract’s request bodies and exports its types unchanged', () => {
    expectTypeOf<Same<Sdk.CronInput, z.input<typeof contract.crons.create.body>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Sdk.EventInput, z.input<typeof contract.events.create.body>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Sdk.CronPatch, z.input<typeof contract.crons.patch.body>>>().toEqualTypeOf<true>();
    expectTypeOf<
      Same<{ events: Sdk.EventInput[] }, z.input<typeof contract.events.createMany.body>>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Same<Sdk.EventReplayFilter, z.input<typeof contract.events.replayMany.body>>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Same<Sdk.Cron, z.infer<(typeof contract.crons.get.responses)[200]>['data']>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Same<Sdk.Event, z.infer<(typeof contract.events.get.responses)[200]>['data']>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Same<Sdk.ErrorCode, z.infer<(typeof contract.crons.get.responses)[404]>['error']['code']>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Same<Sdk.CronListQuery, Partial<z.output<typeof contract.crons.list.query>>>
    >().toEqualTypeOf<true>();
    expectTypeOf<Same<Sdk.CronRunStatus, z.infer<typeof CronRunStatus>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Sdk.PausedReason, z.infer<typeof PausedReason>>>().toEqualTypeOf<true>();
    expectTypeOf<Same<Sdk.BackoffType, z.infer<typeof BackoffType>>>().toEqualTypeOf<true>();
    expectTypeOf<
      Same<Sdk.EventListQuery, Partial<z.output<typeof contract.events.list.query>>>
    >().toEqualTypeOf<true>();
  });
});
