// Company webhooks (issue 18, webhooks/README.md): an admin's URLs for the company's events. The
// signing secret is generated here, stored sealed, answered in full only by the write that made it
// (create, or update with rotateSecret) and masked after. "Send test" queues a delivery like any
// event's, so it shows in the log with its attempts and answer.
import { randomBytes } from 'node:crypto';
import { AppError, MAX_WEBHOOKS_PER_COMPANY, WEBHOOK_TEST_EVENT, type Webhook, type WebhookCreateInput, type WebhookDelivery, type WebhookUpdateInput } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { SecretBox } from '../../auth/secret-box.ts';
import { maskSecret } from '../../auth/secret-box.ts';
import type { Database } from '../../db/database.ts';
import type { WebhookDeliveries, Webhooks } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { deliveryRows, forgetSubscriptions, insertDeliveries } from '../../webhooks/queue.ts';

const notFound = () => new AppError('ERR_NOT_FOUND', 'Webhook not found.');

export const generateWebhookSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

function toWebhookDto(row: Selectable<Webhooks>, secrets: SecretBox, revealed?: string): Webhook {
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    enabled: row.enabled === 1,
    secret: revealed ?? maskSecret(secrets.open(row.secret)),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function toDeliveryDto(row: Selectable<WebhookDeliveries>): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.webhookId,
    eventId: row.eventId,
    event: row.event,
    state: row.state as WebhookDelivery['state'],
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    durationMs: row.durationMs,
    error: row.error,
    createdAt: row.createdAt,
    deliveredAt: row.deliveredAt,
    nextAttemptAt: row.state === 'queued' ? row.notBefore : null,
  };
}

async function findRow(db: Database, companyId: number, id: number) {
  const row = await tenant(db, companyId).selectFrom('webhooks').selectAll('webhooks').where('webhooks.id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function listWebhooks(db: Database, secrets: SecretBox, companyId: number): Promise<Webhook[]> {
  const rows = await tenant(db, companyId).selectFrom('webhooks').selectAll('webhooks').orderBy('webhooks.id').execute();
  return rows.map((r) => toWebhookDto(r, secrets));
}

export async function getWebhook(db: Database, secrets: SecretBox, companyId: number, id: number): Promise<Webhook> {
  return toWebhookDto(await findRow(db, companyId, id), secrets);
}

/**
 * The write changed the company's webhooks: its events read them again (this instance at once), and
 * its users are poked, so another admin's open webhooks page shows the change.
 */
function changed(tx: Tx, companyId: number) {
  tx.effects.poke(companyId);
  forgetSubscriptions(tx.config, companyId);
  tx.effects.afterCommit((app) => forgetSubscriptions(app.config, companyId));
  tx.effects.onRollback(() => forgetSubscriptions(tx.config, companyId));
}

export async function createWebhook(tx: Tx, secrets: SecretBox, companyId: number, input: WebhookCreateInput): Promise<Webhook> {
  const t = tenant(tx.db, companyId);
  const count = Number((await t.selectFrom('webhooks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  if (count >= MAX_WEBHOOKS_PER_COMPANY) throw new AppError('ERR_VALIDATION', `At most ${MAX_WEBHOOKS_PER_COMPANY} webhooks per company.`, { issues: [{ path: 'url', message: 'Too many webhooks' }] });
  const secret = generateWebhookSecret();
  const row = await t
    .insertInto('webhooks', { name: input.name, url: input.url, events: JSON.stringify(input.events), enabled: input.enabled ? 1 : 0, secret: secrets.seal(secret) })
    .returningAll()
    .executeTakeFirstOrThrow();
  changed(tx, companyId);
  return toWebhookDto(row as Selectable<Webhooks>, secrets, secret);
}

export async function updateWebhook(tx: Tx, secrets: SecretBox, companyId: number, id: number, input: WebhookUpdateInput): Promise<Webhook> {
  await findRow(tx.db, companyId, id);
  const secret = input.rotateSecret ? generateWebhookSecret() : undefined;
  await tenant(tx.db, companyId)
    .updateTable('webhooks')
    .set({
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.events !== undefined ? { events: JSON.stringify(input.events) } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled ? 1 : 0 } : {}),
      ...(secret ? { secret: secrets.seal(secret) } : {}),
      updatedAt: new Date().toISOString(),
    })
    .where('webhooks.id', '=', id)
    .execute();
  changed(tx, companyId);
  return toWebhookDto(await findRow(tx.db, companyId, id), secrets, secret);
}

/** Its deliveries go with it (queued ones are never posted). */
/**
 * One slice of a webhook's delete, run before its write (the route repeats it in writes of their
 * own: db/slices.ts): up to `limit` rows of its delivery log deleted; answers how many. In the
 * delete's one write, a log of 100,000 deliveries held SQLite's writer 0.6 s. Another company's
 * webhook id matches none of its deliveries.
 */
export async function emptyWebhookLogSlice(tx: Tx, companyId: number, id: number, limit: number): Promise<number> {
  const t = tenant(tx.db, companyId);
  // The ids first (db/slices.ts says why).
  const ids = (await t.selectFrom('webhookDeliveries').select('webhookDeliveries.id').where('webhookDeliveries.webhookId', '=', id).limit(limit).execute()).map((r) => r.id);
  if (ids.length > 0) await t.deleteFrom('webhookDeliveries').where('webhookDeliveries.id', 'in', ids).execute();
  return ids.length;
}

/** The delete's last write: the webhook and what its log gained since the slices. */
export async function deleteWebhook(tx: Tx, companyId: number, id: number): Promise<void> {
  await findRow(tx.db, companyId, id);
  await tenant(tx.db, companyId).deleteFrom('webhookDeliveries').where('webhookDeliveries.webhookId', '=', id).execute();
  await tenant(tx.db, companyId).deleteFrom('webhooks').where('webhooks.id', '=', id).execute();
  changed(tx, companyId);
}

/** "Send test": a `webhook.test` delivery, queued like any event's (also for a disabled webhook). */
export async function testWebhook(tx: Tx, companyId: number, id: number): Promise<WebhookDelivery> {
  const row = await findRow(tx.db, companyId, id);
  const rows = deliveryRows([row.id], WEBHOOK_TEST_EVENT, companyId, undefined, { webhook: { id: row.id, name: row.name }, message: 'This is a test delivery from zapdesk.' });
  await insertDeliveries(tx, companyId, rows);
  const created = await tenant(tx.db, companyId).selectFrom('webhookDeliveries').selectAll('webhookDeliveries').where('webhookDeliveries.eventId', '=', rows[0]!.eventId).executeTakeFirstOrThrow();
  return toDeliveryDto(created);
}

/** The delivery log: the webhook's latest deliveries, newest first. */
export async function listDeliveries(db: Database, companyId: number, id: number, limit: number): Promise<WebhookDelivery[]> {
  await findRow(db, companyId, id);
  const rows = await tenant(db, companyId)
    .selectFrom('webhookDeliveries')
    .selectAll('webhookDeliveries')
    .where('webhookDeliveries.webhookId', '=', id)
    .orderBy('webhookDeliveries.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toDeliveryDto);
}
