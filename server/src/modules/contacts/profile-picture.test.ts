// Contact profile pictures through the channel (spec/02 §3 profilePicUrl): the simulated phone
// supplies a picture per number; a new contact gets it after its first message or its creation,
// it is asked again only when a day old, and REST and the sync view show the stored URL.
import { contactKey } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newNumber, numberWithPicture, setupDesk } from '../../../test/conversation.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { pullValue } from '../../../test/read-model.ts';
import { simulatedProfilePicture } from '../../channels/simulator/avatar.ts';
import { tenant } from '../../db/tenant.ts';
import { bumpVersion } from '../../sync/version.ts';
import { refreshProfilePicture, settleProfilePictures } from './profile-picture.ts';

describe.each(DIALECTS)('contact profile pictures on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  it('fetches the picture of a new contact after its first message; REST, the ticket and the sync view show it', async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const token = desk.adminSession.token;
    const from = numberWithPicture();
    await desk.say(from, 'hello', { name: 'Pic Person' });
    await settleProfilePictures(t.deps);
    const ticket = (await desk.ticketOf(from))!;
    const expected = simulatedProfilePicture(from)!;
    expect(expected).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(expected.split(',')[1]!, 'base64').toString()).toContain('<svg');

    const contact = await t.request('GET', `/contacts/${ticket.contactId}`, { token });
    expect(contact.body.profilePicUrl).toBe(expected);
    expect((await t.request('GET', `/tickets/${ticket.id}`, { token })).body.contact.profilePicUrl).toBe(expected);
    expect(await pullValue(t, token, contactKey(ticket.contactId))).toMatchObject({ profilePicUrl: expected });
    // Same number, same picture: deterministic.
    expect(simulatedProfilePicture(from)).toBe(expected);
  });

  it('asks again only when the last answer is a day old; no picture is stored as null', async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const channel = t.deps.sessions.getChannel(desk.connectionId)!;
    const asked = vi.spyOn(channel, 'profilePictureUrl');
    const hidden = `${newNumber().slice(0, -1)}0`;
    await desk.say(hidden, 'first');
    await settleProfilePictures(t.deps);
    const ticket = (await desk.ticketOf(hidden))!;
    const db = tenant(t.db, desk.companyId);
    const read = () => db.selectFrom('contacts').select(['contacts.profilePicUrl', 'contacts.profilePicCheckedAt', 'contacts.version']).where('contacts.id', '=', ticket.contactId).executeTakeFirstOrThrow();
    const first = await read();
    expect(first.profilePicUrl).toBeNull();
    expect(first.profilePicCheckedAt).not.toBeNull();
    expect(asked).toHaveBeenCalledTimes(1);

    await desk.say(hidden, 'second');
    await settleProfilePictures(t.deps);
    expect(asked).toHaveBeenCalledTimes(1);

    // A day later the contact is asked again.
    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000).toISOString();
    await db.updateTable('contacts').set({ profilePicCheckedAt: dayAgo, ...bumpVersion() }).where('contacts.id', '=', ticket.contactId).execute();
    const before = await read();
    await desk.say(hidden, 'third');
    await settleProfilePictures(t.deps);
    expect(asked).toHaveBeenCalledTimes(2);
    const after = await read();
    expect(Date.parse(after.profilePicCheckedAt!)).toBeGreaterThan(Date.parse(dayAgo));
    // Still no picture: nothing a client sees changed, so the version stays.
    expect(after.version).toBe(before.version);
    asked.mockRestore();
  });

  it('a contact created over REST gets its picture through the company’s default connection; other companies see nothing of it', async () => {
    const desk = await setupDesk(t);
    const other = await setupDesk(t);
    const number = numberWithPicture();
    const created = await t.request('POST', '/contacts', { token: desk.adminSession.token, body: { name: 'Typed In', number } });
    expect(created.status).toBe(201);
    await settleProfilePictures(t.deps);
    const shown = await t.request('GET', `/contacts/${created.body.id}`, { token: desk.adminSession.token });
    expect(shown.body.profilePicUrl).toBe(simulatedProfilePicture(number));
    const foreign = await t.request('GET', `/contacts/${created.body.id}`, { token: other.adminSession.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('ERR_NO_CONTACT_FOUND');
  });

  it('answers that arrive together are recorded together: one write, each contact right, versions moved only for a new picture', async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const db = tenant(t.db, desk.companyId);
    // Every other number ends in 0: the simulated phone has no picture for it.
    const numbers = Array.from({ length: 40 }, (_, i) => `${newNumber()}${i % 2 === 0 ? 7 : 0}`);
    const contacts = await db
      .insertInto('contacts', numbers.map((number, i) => ({ name: `Batch ${i}`, number, whatsappId: desk.connectionId })))
      .returning(['contacts.id', 'contacts.number', 'contacts.version'])
      .execute();
    // The phone answers all 40 at the same moment, once the last was asked.
    const channel = t.deps.sessions.getChannel(desk.connectionId)!;
    const ask = channel.profilePictureUrl.bind(channel);
    let release!: () => void;
    const allAsked = new Promise<void>((r) => (release = r));
    let asked = 0;
    const held = vi.spyOn(channel, 'profilePictureUrl').mockImplementation(async (peer) => {
      if (++asked === contacts.length) release();
      await allAsked;
      return ask(peer);
    });
    const poked = vi.spyOn(t.deps.realtime, 'pokeCompany');
    await Promise.all(contacts.map((c) => refreshProfilePicture(t.deps, { companyId: desk.companyId, contactId: c.id, connectionId: desk.connectionId })));
    // One write for the 20 new pictures: the company is poked once, not once per contact.
    expect(poked.mock.calls.filter(([companyId]) => companyId === desk.companyId)).toHaveLength(1);
    poked.mockRestore();
    held.mockRestore();
    const rows = await db.selectFrom('contacts').select(['contacts.id', 'contacts.profilePicUrl', 'contacts.profilePicCheckedAt', 'contacts.version']).where('contacts.id', 'in', contacts.map((c) => c.id)).execute();
    for (const c of contacts) {
      const row = rows.find((r) => r.id === c.id)!;
      const picture = simulatedProfilePicture(c.number) ?? null;
      expect(row.profilePicUrl).toBe(picture);
      expect(row.profilePicCheckedAt).not.toBeNull();
      expect(row.version).toBe(picture === null ? c.version : c.version + 1);
    }
  });
});
