import { describe, expect, it } from 'vitest';
import { queueIntegrationCreateSchema, type QueueIntegration } from '@zapdesk/sync';
import { initialValues, integrationBody } from './integration-form.ts';

describe('the integration dialog body', () => {
  it('sends only the chosen type’s fields, with the Typebot defaults, and passes the shared create schema', () => {
    const values = { ...initialValues(null), name: 'Sales bot', urlN8N: 'https://typebot.example.com', typebotSlug: 'sales', projectName: 'stale', flowId: '7' };
    const body = integrationBody(values, false);
    expect(body).toEqual({
      type: 'typebot',
      name: 'Sales bot',
      urlN8N: 'https://typebot.example.com',
      typebotSlug: 'sales',
      typebotExpires: '1',
      typebotDelayMessage: '1000',
      typebotKeywordFinish: '',
      typebotKeywordRestart: '',
      typebotUnknownMessage: '',
      typebotRestartMessage: '',
    });
    expect(queueIntegrationCreateSchema.safeParse(body).success).toBe(true);
  });

  it('leaves empty secrets out (kept on edit, generated on create) and never fills the form with a stored one', () => {
    const stored = { type: 'webhook', name: 'Hook', urlN8N: 'https://x.test', signingSecret: '••••abcd', hasSigningSecret: true, jsonContent: '', hasJsonContent: false } as QueueIntegration;
    const values = initialValues(stored);
    expect(values.signingSecret).toBe('');
    expect(integrationBody(values, true)).toEqual({ type: 'webhook', name: 'Hook', urlN8N: 'https://x.test' });
    expect(integrationBody({ ...values, signingSecret: 'a-new-secret-of-24-chars' }, true)).toMatchObject({ signingSecret: 'a-new-secret-of-24-chars' });
    const agent = { ...initialValues(null), type: 'dialogflow' as const, name: 'Agent' };
    expect(integrationBody(agent, true)).toEqual({ type: 'dialogflow', name: 'Agent', language: 'pt-BR' });
    expect(integrationBody(agent, false)).toEqual({ type: 'dialogflow', name: 'Agent', language: 'pt-BR', projectName: '' });
    expect(queueIntegrationCreateSchema.safeParse(integrationBody(agent, false)).error?.issues.map((i) => i.path.join('.'))).toEqual(['jsonContent']);
  });
});
