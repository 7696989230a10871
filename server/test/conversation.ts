// Test helpers for conversations: a company with queues, attendants and a paired simulator
// connection, and the customer's side of the simulator (say something, read what we sent).
import { expect } from 'vitest';
import { tenant } from '../src/db/tenant.ts';
import type { TestApp } from './harness.ts';
import { loginAs, seedQueue, seedTenant, seedUser, seedUserQueues } from './seed.ts';
import { bumpVersion } from '../src/sync/version.ts';
import { settleProfilePictures } from '../src/modules/contacts/profile-picture.ts';

let seq = 0;

export type DeskOptions = {
  /** Queues on the connection, with their greetings; the first one's attendant is `user`. */
  queues?: { name?: string; greetingMessage?: string | null; outOfHoursMessage?: string | null; schedules?: unknown[] }[];
  connection?: Record<string, unknown>;
  settings?: Record<string, string>;
};

export async function setupDesk(t: TestApp, opts: DeskOptions = {}) {
  const base = await seedTenant(t, { useExternalApi: 1 });
  const companyId = base.company.id;
  const db = tenant(t.db, companyId);
  const queues = [];
  for (const q of opts.queues ?? []) {
    const row = await seedQueue(t, companyId, { name: q.name ?? `Queue ${++seq}-${Date.now()}` });
    await db
      .updateTable('queues')
      .set({ greetingMessage: q.greetingMessage ?? null, outOfHoursMessage: q.outOfHoursMessage ?? null, schedules: JSON.stringify(q.schedules ?? []), ...bumpVersion() })
      .where('queues.id', '=', row.id)
      .execute();
    queues.push(row);
  }
  if (queues[0]) await seedUserQueues(t, companyId, base.user.id, [queues[0].id]);
  // An attendant of another queue (or of none): must not see the first queue's tickets.
  const outsider = await seedUser(t, companyId, { profile: 'user' });
  if (queues[1]) await seedUserQueues(t, companyId, outsider.id, [queues[1].id]);
  const outsiderSession = await loginAs(t, outsider);
  for (const [key, value] of Object.entries(opts.settings ?? {})) {
    await db.updateTable('settings').set({ value, ...bumpVersion() }).where('settings.key', '=', key).execute();
  }
  const token = base.adminSession.token;
  const created = await t.request('POST', '/whatsapp', {
    token,
    body: { name: `Line ${++seq}`, provider: 'simulator', isDefault: true, queueIds: queues.map((q) => q.id), greetingMessage: queues.length > 1 ? 'Welcome! Choose a department:' : null, ...opts.connection },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const connectionId = created.body.id as number;
  await t.request('POST', `/whatsappsession/${connectionId}`, { token });
  const scan = await t.request('POST', `/simulator/connections/${connectionId}/scan`, { token });
  expect(scan.body.status).toBe('CONNECTED');
  const connection = await db.selectFrom('whatsapps').selectAll().where('whatsapps.id', '=', connectionId).executeTakeFirstOrThrow();

  /** A customer writes to the connection; answers the WhatsApp message id. */
  async function say(from: string, body: string, extra: Record<string, unknown> = {}): Promise<string> {
    const res = await t.request('POST', '/simulator/messages', { token, body: { connectionId, from, body, ...extra } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // And what the message started in the background: the contact's profile picture.
    await settleProfilePictures(t.deps);
    return res.body.id as string;
  }
  /** What the platform sent to a number, oldest first, once the outbox has sent what was queued. */
  async function outbox(to?: string): Promise<{ id: string; body: string; ack: number; timestamp: string; mediaType?: string; fileName?: string; quotedId?: string; deleted?: boolean }[]> {
    await t.deps.outbox.idle();
    const res = await t.request('GET', `/simulator/outbox?connectionId=${connectionId}${to ? `&to=${to}` : ''}`, { token });
    expect(res.status).toBe(200);
    return res.body;
  }
  const ticketOf = async (number: string) =>
    db
      .selectFrom('tickets')
      .innerJoin('contacts', 'contacts.id', 'tickets.contactId')
      .selectAll('tickets')
      .where('contacts.number', '=', number)
      .orderBy('tickets.id', 'desc')
      .executeTakeFirst();
  return { ...base, companyId, queues, outsider, outsiderSession, connection, connectionId, say, outbox, ticketOf };
}

/** A fresh customer number (unique across the test run). */
export const newNumber = () => `55219${String(Date.now() % 1e5).padStart(5, '0')}${String(++seq).padStart(3, '0')}`;

/** A fresh customer number the simulated phone has a profile picture for (none ends in 0: channels/simulator/avatar.ts). */
export function numberWithPicture(): string {
  let number = newNumber();
  while (number.endsWith('0')) number = newNumber();
  return number;
}
