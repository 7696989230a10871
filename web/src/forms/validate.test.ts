// The words a form shows for the shared schemas' refusals (validate.ts), through the real English strings.
import { describe, expect, it } from 'vitest';
import { contactListCreateSchema, promptCreateSchema, scheduleCreateSchema, userCreateSchema } from '@zapdesk/sync';
import i18next from 'i18next';
import { en } from '../i18n/locales/en.ts';
import { validate } from './validate.ts';

const i18n = i18next.createInstance();
await i18n.init({ lng: 'en', resources: { en: { translation: en } } });
const t = i18n.getFixedT('en');
const errorsOf = (schema: Parameters<typeof validate>[0], values: unknown) => {
  const result = validate(schema, values, t);
  return result.ok ? {} : result.errors;
};

describe('form refusals', () => {
  it("says Required for a field left empty that the spec's forms require, and how long a too-short one must be", () => {
    expect(errorsOf(contactListCreateSchema, { name: '' }).name).toBe('Required');
    expect(errorsOf(contactListCreateSchema, { name: '   ' }).name).toBe('Required');
    expect(errorsOf(contactListCreateSchema, { name: 'x' }).name).toBe('Too short: at least 2 characters');
    expect(errorsOf(userCreateSchema, { name: 'Ana', email: 'ana@x.test', password: 'abc', profile: 'user' }).password).toBe('Too short: at least 5 characters');
    const prompt = errorsOf(promptCreateSchema, { name: '', prompt: 'Be kind.', queueId: 1, apiKey: 'sk-1' });
    expect([prompt.name, prompt.prompt]).toEqual(['Required', 'Too short: at least 50 characters']);
  });

  it('says the bound a number passed, not that it is too long or short', () => {
    const base = { name: 'Padaria', prompt: 'x'.repeat(60), queueId: 1, apiKey: 'sk-1' };
    expect(errorsOf(promptCreateSchema, { ...base, temperature: 1.5 }).temperature).toBe('At most 1');
    expect(errorsOf(promptCreateSchema, { ...base, temperature: -0.5 }).temperature).toBe('At least 0');
    expect(errorsOf(promptCreateSchema, { ...base, maxTokens: '0' }).maxTokens).toBe('At least 1');
    expect(errorsOf(promptCreateSchema, { ...base, maxMessages: 101 }).maxMessages).toBe('At most 100');
  });

  it('keeps a message the spec words itself', () => {
    // spec/02 §5: a schedule's empty message is "too short" in its own words.
    expect(errorsOf(scheduleCreateSchema, { body: '', contactId: 1, sendAt: new Date(Date.now() + 3_600_000).toISOString() }).body).toBe('Too short');
  });
});
