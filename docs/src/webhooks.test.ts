import { AlertMessage } from '@webhook-scheduler/contract';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './openapi.js';
import { ALERTS } from './webhooks.js';

interface Webhook {
  post: {
    operationId: string;
    requestBody: { content: Record<string, { schema: { $ref: string }; example: unknown }> };
  };
}

const document = buildOpenApiDocument() as {
  webhooks: Record<string, Webhook>;
  components: { schemas: Record<string, { properties: { type: { const?: unknown } } }> };
};

describe('the webhooks section', () => {
  it('lists every alert message of the contract, each under its type', () => {
    const types = AlertMessage.options.map((option) => option.shape.type.value);
    expect(Object.keys(document.webhooks).sort()).toEqual([...types].sort());
  });

  it.each(Object.entries(ALERTS))(
    'describes %s with its named schema, whose type is that one value',
    (type) => {
      const media = document.webhooks[type]?.post.requestBody.content['application/json'];
      const name = media?.schema.$ref.replace('#/components/schemas/', '') ?? '';
      expect(document.components.schemas[name]?.properties.type.const).toBe(type);
    },
  );

  it.each(Object.entries(ALERTS))(
    'has an example of %s that the contract accepts as it is',
    (type, alert) => {
      const parsed = AlertMessage.safeParse(alert.example);
      expect(parsed.error?.issues).toBeUndefined();
      expect(parsed.data).toEqual(alert.example);
      expect(alert.example.type).toBe(type);
    },
  );
});
