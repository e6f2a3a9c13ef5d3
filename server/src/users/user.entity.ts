import { type InferEntity, defineEntity, p } from '@mikro-orm/core';

export const UserSchema = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.uuid().primary(),
    email: p.text(),
    passwordHash: p.text(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type User = InferEntity<typeof UserSchema>;
