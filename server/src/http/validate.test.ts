// The words of a refusal (validate.ts messageOf), with the product's own schemas: a form's
// "Required" only for what was left out, and what was sent wrong said as wrong.
import { describe, expect, it } from 'vitest';
import { AppError, campaignCreateSchema, contactListCreateSchema, queueIntegrationCreateSchema, userCreateSchema } from '@zapdesk/sync';
import { parseWith } from './validate.ts';

const issuesOf = (schema: Parameters<typeof parseWith>[0], input: unknown) => {
  try {
    parseWith(schema, input);
  } catch (err) {
    if (err instanceof AppError) return err.issues ?? [];
    throw err;
  }
  throw new Error('accepted');
};

describe('refusal words', () => {
  it('says Required for a field left out, and what was expected for a value of the wrong kind', () => {
    expect(issuesOf(campaignCreateSchema, {}).find((i) => i.path === 'name')?.message).toBe('Required');
    expect(issuesOf(campaignCreateSchema, { name: 123 }).find((i) => i.path === 'name')?.message).toBe('Invalid input: expected string');
    expect(issuesOf(queueIntegrationCreateSchema, { name: 'Bot' }).find((i) => i.path === 'type')?.message).toBe('Required');
    expect(issuesOf(queueIntegrationCreateSchema, { type: 'slack', name: 'Bot' }).find((i) => i.path === 'type')?.message).toMatch(/^Invalid option: expected one of "dialogflow", /);
    // Schemas that name no message of their own say it the same way (spec/03 §5: 'Required').
    expect(issuesOf(userCreateSchema, {}).filter((i) => ['name', 'email', 'password'].includes(i.path)).map((i) => i.message)).toEqual(['Required', 'Required', 'Required']);
    expect(issuesOf(contactListCreateSchema, {}).map((i) => [i.path, i.message])).toEqual([['name', 'Required']]);
    expect(issuesOf(userCreateSchema, { name: 'Ana', email: 'ana@x.test', password: 12345 }).find((i) => i.path === 'password')?.message).toBe('Invalid input: expected string, received number');
  });
});
