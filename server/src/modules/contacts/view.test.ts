// Contacts in the client view, read through POST /sync/pull: the contact of each active ticket the
// user may see is what GET /contacts/{id} answers, custom fields included, and follows its edits.
import { contactSchema, type Contact } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { newNumber, setupDesk } from '../../../test/conversation.ts';
import { expectOneReadModel, syncClient } from '../../../test/read-model.ts';

describe.each(DIALECTS)('contacts in the sync view on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  it('puts the contact of a ticket as GET /contacts/{id} answers it, before and after an edit', async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const token = desk.userSession.token;
    const from = newNumber();
    await desk.say(from, 'hi', { name: 'Rita' });
    const ticket = (await desk.ticketOf(from))!;
    const key = `contact/${ticket.contactId}`;
    const client = syncClient(t, token);
    const expectSame = async () => {
      await client.pull();
      const rest = await t.request('GET', `/contacts/${ticket.contactId}`, { token });
      expect(rest.status).toBe(200);
      expectOneReadModel(contactSchema, rest.body, client.get(key));
      return rest.body as Contact;
    };
    const first = await expectSame();
    expect(first).toMatchObject({ name: 'Rita', number: from, jid: `${from}@s.whatsapp.net`, whatsappId: desk.connectionId, extraInfo: [] });

    const edit = { email: 'rita@example.com', disableBot: true, extraInfo: [{ name: 'Plan', value: 'Gold' }, { name: 'City', value: 'Rio' }] };
    expect((await t.request('PUT', `/contacts/${ticket.contactId}`, { token, body: edit })).status).toBe(200);
    expect((await client.pull()).puts.has(key)).toBe(true);
    const second = await expectSame();
    expect(second).toMatchObject({ email: 'rita@example.com', disableBot: true, extraInfo: [{ name: 'Plan', value: 'Gold' }, { name: 'City', value: 'Rio' }] });
  });
});
