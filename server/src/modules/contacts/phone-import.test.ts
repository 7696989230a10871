// POST /contacts/import through HTTP with the simulator: the paired phone's address book (and
// whoever wrote to it) becomes the company's contacts once; a rerun creates none; numbers not on
// WhatsApp are left out; another company's contacts are untouched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedAddressBook } from '../../channels/simulator/channel.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { newNumber, setupDesk } from '../../../test/conversation.ts';

describe.each(DIALECTS)('phone contacts import on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  it('imports the simulated address book once, leaves out absent numbers and other companies', async () => {
    const desk = await setupDesk(t);
    const other = await setupDesk(t);
    const token = desk.adminSession.token;
    const contactsOf = async (session: { token: string }) =>
      ((await t.request('GET', '/contacts', { token: session.token })).body.contacts as { name: string; number: string }[]).map((c) => `${c.name} ${c.number}`).sort();
    // A customer who wrote is a contact already (the pipeline made it); the import leaves it be.
    const walkIn = newNumber();
    await desk.say(walkIn, 'hello', { name: 'Walk In' });
    const book = simulatedAddressBook(desk.connection.number!);
    const absent = book[4]!.number!;
    expect((await t.request('POST', '/simulator/numbers', { token, body: { connectionId: desk.connectionId, number: absent, exists: false } })).status).toBe(200);
    const otherBefore = await contactsOf(other.adminSession);

    const first = await t.request('POST', '/contacts/import', { token });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ count: 4 });
    expect(await contactsOf(desk.adminSession)).toEqual([...book.slice(0, 4).map((p) => `${p.name} ${p.number}`), `Walk In ${walkIn}`].sort());

    expect((await t.request('POST', '/contacts/import', { token })).body).toEqual({ count: 0 });
    expect(await contactsOf(other.adminSession)).toEqual(otherBefore);
    // The other company imports its own phone's book, not this one's.
    const otherImport = await t.request('POST', '/contacts/import', { token: other.adminSession.token });
    expect(otherImport.body).toEqual({ count: 5 });
    expect((await contactsOf(other.adminSession)).some((c) => book.some((p) => c.endsWith(p.number!)))).toBe(false);
  });

  it('imports nothing while the connection is not connected', async () => {
    const desk = await setupDesk(t);
    const token = desk.adminSession.token;
    expect((await t.request('DELETE', `/whatsappsession/${desk.connectionId}`, { token })).status).toBe(200);
    expect((await t.request('POST', '/contacts/import', { token })).body).toEqual({ count: 0 });
  });
});
