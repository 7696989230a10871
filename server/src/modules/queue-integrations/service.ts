// The business rules of queue integrations (spec/03 §5, §9; issue 16). Writes take the route's
// transaction (`Tx`, DESIGN §12) and poke the company after the commit. One function turns the row
// as it will be (a create's input, or a PUT merged over the stored row) into columns: fields that do
// not belong to the type are cleared, the project name follows the name where the spec says so, and
// secrets are sealed (Dialogflow's JSON in `json_content`, the signing secret of n8n and webhook
// calls in `signing_secret_enc`). A signed type without a secret gets a generated one, answered in
// full by that write only.
import { randomBytes } from 'node:crypto';
import { change, emit } from '../../events/emit.ts';
import {
  AppError,
  integrationRuleIssues,
  isNewSecret,
  NAMED_PROJECT_TYPES,
  readDialogflowCredentials,
  SIGNED_INTEGRATION_TYPES,
  TYPEBOT_DEFAULTS,
  URL_INTEGRATION_TYPES,
  type IntegrationType,
  type QueueIntegration,
  type QueueIntegrationCreateInput,
  type QueueIntegrationUpdateInput,
} from '@zapdesk/sync';
import type { Insertable, Selectable } from 'kysely';
import type { SecretBox } from '../../auth/secret-box.ts';
import type { Actor } from '../../context.ts';
import type { Database } from '../../db/database.ts';
import type { QueueIntegrations } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { bumpVersion } from '../../sync/version.ts';
import { invalid } from '../whatsapps/access.ts';
import { toQueueIntegrationDto } from './dto.ts';
import { findIntegrationRow, findIntegrationsPage, isOwnFlow } from './queries.ts';

export const integrationNotFound = () => new AppError('ERR_NOT_FOUND', 'Integration not found.');

/** A signing secret for n8n and webhook calls when the admin types none: 256 random bits. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export async function listIntegrations(db: Database, secrets: SecretBox, actor: Actor, search: string, pageNumber: number | undefined) {
  const page = await findIntegrationsPage(db, actor.companyId, search, pageNumber);
  return { queueIntegrations: page.rows.map((r) => toQueueIntegrationDto(r, secrets)), hasMore: page.hasMore };
}

export async function getIntegration(db: Database, secrets: SecretBox, actor: Actor, id: number): Promise<QueueIntegration> {
  const row = await findIntegrationRow(db, actor.companyId, id);
  if (!row) throw integrationNotFound();
  return toQueueIntegrationDto(row, secrets);
}

/** The row as it will be, in the request's words; secrets are the new plain values, if any. */
type Draft = Omit<QueueIntegrationCreateInput, 'jsonContent' | 'signingSecret' | 'companyId'> & { jsonContent?: string | undefined; signingSecret?: string | undefined };
type Kept = { jsonContentEnc: string | null; signingSecretEnc: string | null };
type Columns = Omit<Insertable<QueueIntegrations>, 'companyId'>;

async function toColumns(db: Database, secrets: SecretBox, companyId: number, d: Draft, kept: Kept): Promise<{ columns: Columns; revealed?: string }> {
  const issues = integrationRuleIssues({ ...d, hasJsonContent: kept.jsonContentEnc !== null });
  if (issues[0]) throw new AppError('ERR_VALIDATION', `${issues[0].path}: ${issues[0].message}`, { issues });
  const type: IntegrationType = d.type;
  if (type === 'flowbuilder' && d.flowId && !(await isOwnFlow(db, companyId, d.flowId))) throw invalid('flowId', `No flow ${d.flowId} in this company`);

  let jsonContent: string | null = null;
  let projectName: string | null = d.projectName ?? null;
  if (type === 'dialogflow') {
    jsonContent = d.jsonContent ? secrets.seal(d.jsonContent) : kept.jsonContentEnc;
    const credentials = d.jsonContent ? readDialogflowCredentials(d.jsonContent) : undefined;
    if (!projectName && credentials && 'projectId' in credentials) projectName = credentials.projectId;
  }
  if (NAMED_PROJECT_TYPES.includes(type)) projectName = d.name;

  let signingSecretEnc: string | null = null;
  let revealed: string | undefined;
  if (SIGNED_INTEGRATION_TYPES.includes(type)) {
    if (d.signingSecret) signingSecretEnc = secrets.seal(d.signingSecret);
    else if (kept.signingSecretEnc) signingSecretEnc = kept.signingSecretEnc;
    else {
      revealed = generateSigningSecret();
      signingSecretEnc = secrets.seal(revealed);
    }
  }

  const typebot = type === 'typebot';
  const columns: Columns = {
    type,
    name: d.name,
    projectName,
    jsonContent,
    language: type === 'dialogflow' ? (d.language ?? null) : null,
    urlN8n: URL_INTEGRATION_TYPES.includes(type) ? (d.urlN8N ?? null) : null,
    typebotSlug: typebot ? (d.typebotSlug ?? null) : null,
    typebotExpires: typebot ? (d.typebotExpires ?? TYPEBOT_DEFAULTS.typebotExpires) : TYPEBOT_DEFAULTS.typebotExpires,
    typebotDelayMessage: typebot ? (d.typebotDelayMessage ?? TYPEBOT_DEFAULTS.typebotDelayMessage) : TYPEBOT_DEFAULTS.typebotDelayMessage,
    typebotKeywordFinish: typebot ? (d.typebotKeywordFinish ?? null) : null,
    typebotKeywordRestart: typebot ? (d.typebotKeywordRestart ?? null) : null,
    typebotUnknownMessage: typebot ? (d.typebotUnknownMessage ?? null) : null,
    typebotRestartMessage: typebot ? (d.typebotRestartMessage ?? null) : null,
    flowId: type === 'flowbuilder' ? (d.flowId ?? null) : null,
    signingSecretEnc,
  };
  return revealed === undefined ? { columns } : { columns, revealed };
}

export async function createIntegration(tx: Tx, secrets: SecretBox, actor: Actor, input: QueueIntegrationCreateInput): Promise<QueueIntegration> {
  const { columns, revealed } = await toColumns(tx.db, secrets, actor.companyId, input, { jsonContentEnc: null, signingSecretEnc: null });
  const row = await tenant(tx.db, actor.companyId).insertInto('queueIntegrations', columns).returningAll().executeTakeFirstOrThrow();
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'queueIntegration', 'create', row.id));
  return toQueueIntegrationDto(row, secrets, revealed);
}

/** The stored row in the request's words, so a PUT can be merged over it. */
function draftOf(row: Selectable<QueueIntegrations>): Draft {
  const orUndefined = <T>(v: T | null) => v ?? undefined;
  return {
    type: row.type as IntegrationType,
    name: row.name,
    projectName: orUndefined(row.projectName),
    language: orUndefined(row.language) as Draft['language'],
    urlN8N: orUndefined(row.urlN8n),
    typebotSlug: orUndefined(row.typebotSlug),
    typebotExpires: row.typebotExpires,
    typebotDelayMessage: row.typebotDelayMessage,
    typebotKeywordFinish: orUndefined(row.typebotKeywordFinish),
    typebotKeywordRestart: orUndefined(row.typebotKeywordRestart),
    typebotUnknownMessage: orUndefined(row.typebotUnknownMessage),
    typebotRestartMessage: orUndefined(row.typebotRestartMessage),
    flowId: orUndefined(row.flowId),
  };
}

export async function updateIntegration(tx: Tx, secrets: SecretBox, actor: Actor, id: number, input: QueueIntegrationUpdateInput): Promise<QueueIntegration> {
  const current = await findIntegrationRow(tx.db, actor.companyId, id);
  if (!current) throw integrationNotFound();
  const draft: Record<string, unknown> = { ...draftOf(current) };
  for (const [key, value] of Object.entries(input)) {
    if (key === 'jsonContent' || key === 'signingSecret' || key === 'companyId' || value === undefined) continue;
    draft[key] = value ?? undefined;
  }
  // Credentials of the same project are kept on a rename; a new JSON may give a new project id.
  if (input.jsonContent !== undefined && isNewSecret(input.jsonContent) && input.projectName === undefined) delete draft.projectName;
  if (isNewSecret(input.jsonContent)) draft.jsonContent = input.jsonContent;
  if (isNewSecret(input.signingSecret)) draft.signingSecret = input.signingSecret.trim();
  const { columns, revealed } = await toColumns(tx.db, secrets, actor.companyId, draft as Draft, { jsonContentEnc: current.jsonContent, signingSecretEnc: current.signingSecretEnc });
  const row = await tenant(tx.db, actor.companyId)
    .updateTable('queueIntegrations')
    .set({ ...columns, ...bumpVersion() })
    .where('queueIntegrations.id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'queueIntegration', 'update', id));
  return toQueueIntegrationDto(row, secrets, revealed);
}

/**
 * Queues, connections and tickets that use the integration lose it first, versions bumped (the
 * foreign keys' own `set null` would change synced rows unseen); a ticket it was serving goes back
 * to people (no integration, no Typebot session).
 */
/**
 * One slice of an integration's delete, run before its write (the route repeats it in writes of
 * their own: db/slices.ts): up to `limit` of the tickets that used it let go of it (versions bumped),
 * then its conversation sessions go; answers how many rows it changed. A ticket keeps its
 * integration after a hand-over or an automatic close, and each keeps its session, so they add up:
 * in the delete's one write, 50,000 of each held SQLite's writer 0.6 s. Another company's id
 * matches none of them.
 */
export async function releaseIntegrationSlice(tx: Tx, companyId: number, id: number, limit: number): Promise<number> {
  const t = tenant(tx.db, companyId);
  // The ids first (db/slices.ts says why).
  const tickets = (await t.selectFrom('tickets').select('tickets.id').where('tickets.integrationId', '=', id).limit(limit).execute()).map((r) => r.id);
  if (tickets.length > 0) {
    await t.updateTable('tickets').set({ integrationId: null, useIntegration: 0, typebotSessionId: null, ...bumpVersion() }).where('tickets.id', 'in', tickets).execute();
    tx.effects.poke(companyId);
  }
  const room = limit - tickets.length;
  if (room === 0) return limit;
  const sessions = (await t.selectFrom('assistantSessions').select('assistantSessions.id').where('assistantSessions.integrationId', '=', id).limit(room).execute()).map((r) => r.id);
  if (sessions.length > 0) await t.deleteFrom('assistantSessions').where('assistantSessions.id', 'in', sessions).execute();
  return tickets.length + sessions.length;
}

export async function deleteIntegration(tx: Tx, actor: Actor, id: number): Promise<void> {
  const t = tenant(tx.db, actor.companyId);
  if (!(await findIntegrationRow(tx.db, actor.companyId, id))) throw integrationNotFound();
  await t.updateTable('queues').set({ integrationId: null, ...bumpVersion() }).where('queues.integrationId', '=', id).execute();
  await t.updateTable('whatsapps').set({ integrationId: null, ...bumpVersion() }).where('whatsapps.integrationId', '=', id).execute();
  await t
    .updateTable('tickets')
    .set({ integrationId: null, useIntegration: 0, typebotSessionId: null, ...bumpVersion() })
    .where('tickets.integrationId', '=', id)
    .execute();
  await t.deleteFrom('queueIntegrations').where('queueIntegrations.id', '=', id).execute();
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'queueIntegration', 'delete', id));
}
