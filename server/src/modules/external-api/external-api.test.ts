import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { newNumber, setupDesk } from '../../../test/conversation.ts';
import { tenant } from '../../db/tenant.ts';
import { bumpVersion } from '../../sync/version.ts';

describe.each(DIALECTS)('external messages API on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  const send = (token: string | undefined, body: unknown) =>
    t.request('POST', '/api/messages/send', { ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}), body });

  it('refuses a missing or wrong token with 401 ERR_SESSION_EXPIRED, never a 500', async () => {
    const desk = await setupDesk(t);
    for (const token of [undefined, 'not-a-token', `${desk.connection.token}x`]) {
      const res = await send(token, { number: newNumber(), body: 'hi' });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('ERR_SESSION_EXPIRED');
    }
    const malformed = await t.request('POST', '/api/messages/send', { headers: { authorization: `Bearer ${desk.connection.token}` }, body: '{"number":' });
    expect(malformed.status).toBe(400);
  });

  it('sends text with the connection token, creating the contact and a closed ticket; replies open a pending one', async () => {
    const desk = await setupDesk(t);
    const number = newNumber();
    const res = await send(desk.connection.token!, { number: `+${number.slice(0, 2)} (${number.slice(2, 4)}) ${number.slice(4)}`, body: 'Your order shipped' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'Message sent', ticketId: expect.any(Number), contactId: expect.any(Number) });
    expect((await desk.outbox(number)).map((m) => m.body)).toEqual(['Your order shipped']);
    const ticket = (await desk.ticketOf(number))!;
    expect(ticket).toMatchObject({ id: res.body.ticketId, status: 'closed', lastMessage: 'Your order shipped' });
    await desk.say(number, 'thanks!');
    expect(await desk.ticketOf(number)).toMatchObject({ status: 'pending' });
    // With an active ticket, the API writes into it.
    const again = await send(desk.connection.token!, { number, body: 'One more thing' });
    expect(again.body.ticketId).toBe((await desk.ticketOf(number))!.id);
  });

  it('sends media as multipart and refuses numbers not on WhatsApp', async () => {
    const desk = await setupDesk(t);
    const number = newNumber();
    const form = new FormData();
    form.append('number', number);
    form.append('body', 'Invoice attached');
    form.append('medias', new Blob([new Uint8Array(512)], { type: 'application/pdf' }), 'invoice.pdf');
    const res = await t.app.request('/api/messages/send', { method: 'POST', headers: { authorization: `Bearer ${desk.connection.token}` }, body: form });
    expect(res.status).toBe(200);
    expect((await desk.outbox(number)).at(-1)).toMatchObject({ mediaType: 'document', fileName: 'invoice.pdf', body: 'Invoice attached' });

    const absent = newNumber();
    await t.request('POST', '/simulator/numbers', { token: desk.adminSession.token, body: { connectionId: desk.connectionId, number: absent, exists: false } });
    const refused = await send(desk.connection.token!, { number: absent, body: 'hello?' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('ERR_WAPP_INVALID_CONTACT');
    expect(await tenant(t.db, desk.companyId).selectFrom('contacts').select('contacts.id').where('contacts.number', '=', absent).execute()).toEqual([]);
  });

  it("needs the plan's external API", async () => {
    const desk = await setupDesk(t);
    const company = await t.db.selectFrom('companies').select('companies.planId').where('companies.id', '=', desk.companyId).executeTakeFirstOrThrow();
    await t.db.updateTable('plans').set({ useExternalApi: 0, ...bumpVersion() }).where('plans.id', '=', company.planId!).execute();
    const res = await send(desk.connection.token!, { number: newNumber(), body: 'hi' });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
  });
});
