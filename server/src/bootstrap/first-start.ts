// First start: on an empty database create the platform company with its super-admin and,
// unless SEED_DEMO=0, a demo company from fixtures/demo.json (its team and connection, and something
// on each of spec/03's automation screens: a flow, its phrase campaign, a contact list, a draft
// campaign), in one write. Later starts change nothing.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  campaignCreateSchema, contactListCreateSchema, contactListItemCreateSchema, createFlowEdge, createFlowNodeId, DEFAULT_SETTINGS,
  FLOW_HANDLES, FLOW_START_NODE_ID, flowCreateSchema, flowSaveSchema, lintFlow, phraseCampaignCreateSchema,
} from '@zapdesk/sync';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Actor, AppDeps } from '../context.ts';
import type { SecretBox } from '../auth/secret-box.ts';
import { hashPassword } from '../auth/password.ts';
import { nowIso, type Database } from '../db/database.ts';
import { tenant } from '../db/tenant.ts';
import { write, type Tx } from '../db/write.ts';
import { createCampaign } from '../modules/campaigns/service.ts';
import { createContactList, createContactListItem } from '../modules/contact-lists/service.ts';
import { createPhraseCampaign } from '../modules/flows/phrase-campaigns.ts';
import { createFlow, saveFlowGraph } from '../modules/flows/service.ts';

type DemoFixture = {
  plan: { name: string; users: number; connections: number; queues: number; valueCents: number };
  company: { name: string; email: string; phone: string; recurrence: string; dueInDays: number };
  users: { name: string; email: string; profile: string; queues: string[] }[];
  queues: { name: string; color: string; greetingMessage: string; orderQueue: number }[];
  tags: { name: string; color: string; kanban: number }[];
  connection: { name: string; greetingMessage: string; queues: string[] };
  conversations: { from: string; name: string; messages: string[] }[];
  /** Nodes named for reading (saved with the editor's ids); a ticket node names its queue: `data.queue.name`. */
  flow: { name: string; nodes: { id: string; type: string; position: { x: number; y: number }; data: Record<string, unknown> }[]; connections: { source: string; target: string; sourceHandle?: string }[] };
  phraseCampaign: { name: string; phrase: string };
  contactList: { name: string; contacts: { name: string; number: string; email: string }[] };
  /** Never scheduled: it stays INATIVA, so the demo sends nothing by itself. */
  campaign: { name: string; message1: string; message2?: string };
};

export type Credentials = { email: string; password: string; generated: boolean };
export type DemoResult = { companyId: number; connectionId: number; users: Credentials[]; conversations: DemoFixture['conversations'] };
/** Empty when the database already had users (a later start, or another instance seeded it first). */
export type FirstStartResult = { superAdmin?: Credentials; demo?: DemoResult };

const DEMO_FILE = new URL('../../../fixtures/demo.json', import.meta.url);
const randomPassword = () => `${randomBytes(9).toString('base64url')}A1`;

/**
 * One write (DESIGN §12): the platform and the demo land together or not at all, so a failed seed
 * leaves the database empty and the next start tries again. Passwords are hashed before it opens:
 * argon2 takes a while, and the transaction should not wait for it.
 */
export async function runFirstStart(deps: AppDeps): Promise<FirstStartResult> {
  const anyUser = await deps.db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (anyUser) return {};
  const superAdmin = { email: deps.config.adminEmail, password: deps.config.adminPassword ?? randomPassword(), generated: !deps.config.adminPassword };
  const superHash = await hashPassword(superAdmin.password);
  const fixture = deps.config.seedDemo ? (JSON.parse(readFileSync(DEMO_FILE, 'utf8')) as DemoFixture) : undefined;
  const demoPassword = deps.config.demoPassword ?? randomPassword();
  const demoLogin = { password: demoPassword, hash: fixture ? await hashPassword(demoPassword) : '', generated: !deps.config.demoPassword };
  return write(deps, async (tx) => {
    // Several instances started together on an empty PostgreSQL database (DESIGN §11): one seeds,
    // the others wait here for its commit, then find its users and change nothing. The lock is
    // per schema (tests share a database) and ends with the transaction.
    if (deps.dialect === 'postgres') {
      await sql`select pg_advisory_xact_lock(hashtext('zapdesk:first-start:' || current_schema()))`.execute(tx.db);
      if (await tx.db.selectFrom('users').select('id').limit(1).executeTakeFirst()) return {};
    }
    await createPlatform(tx.db, deps.config.adminEmail, superHash);
    // Plans are platform-wide rows: every company's clients (none yet, on a first start) pull.
    tx.effects.pokeAll();
    if (!fixture) return { superAdmin };
    return { superAdmin, demo: await createDemo(tx, fixture, demoLogin, deps.secrets) };
  });
}

async function createCompany(db: Database, values: { name: string; email?: string; phone?: string; planId: number; dueDate: string; recurrence?: string }) {
  const company = await db.insertInto('companies').values({ ...values, status: 1 }).returning('id').executeTakeFirstOrThrow();
  await tenant(db, company.id)
    .insertInto('settings', Object.entries(DEFAULT_SETTINGS).map(([key, value]) => ({ key, value })))
    .execute();
  return company.id;
}

async function createPlatform(db: Database, email: string, passwordHash: string): Promise<void> {
  const plan = await db
    .insertInto('plans')
    .values({ name: 'Platform', users: 100, connections: 100, queues: 100, valueCents: 0, isPublic: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const companyId = await createCompany(db, { name: 'zapdesk', planId: plan.id, dueDate: '2099-12-31T23:59:59.000Z' });
  await tenant(db, companyId).insertInto('users', { name: 'Super Admin', email, passwordHash, profile: 'admin', super: 1 }).execute();
}

async function createDemo(tx: Tx, demo: DemoFixture, login: { password: string; hash: string; generated: boolean }, secrets: SecretBox): Promise<DemoResult> {
  const trx = tx.db;
  const plan = await trx.insertInto('plans').values({ ...demo.plan, isPublic: 1 }).returning('id').executeTakeFirstOrThrow();
  const dueDate = new Date(Date.now() + demo.company.dueInDays * 86400_000).toISOString();
  const { dueInDays: _days, ...company } = demo.company;
  const companyId = await createCompany(trx, { ...company, planId: plan.id, dueDate });
  const db = tenant(trx, companyId);
  const queueIds = new Map<string, number>();
  for (const q of demo.queues) {
    const row = await db.insertInto('queues', q).returning('id').executeTakeFirstOrThrow();
    queueIds.set(q.name, row.id);
  }
  const users: Credentials[] = [];
  for (const u of demo.users) {
    const row = await db
      .insertInto('users', { name: u.name, email: u.email, profile: u.profile, passwordHash: login.hash, allTicket: 'desabled' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const links = u.queues.map((name) => ({ userId: row.id, queueId: queueIds.get(name)! }));
    if (links.length) await db.insertInto('userQueues', links).execute();
    users.push({ email: u.email, password: login.password, generated: login.generated });
  }
  const admin = await db.selectFrom('users').select('id').where('profile', '=', 'admin').executeTakeFirstOrThrow();
  await db.insertInto('tags', demo.tags.map((tag) => ({ ...tag, userId: admin.id, createdAt: nowIso() }))).execute();
  // A simulator connection, paired after the server starts (see demo-activity.ts).
  const { queues: connectionQueues, ...connection } = demo.connection;
  const wa = await db
    .insertInto('whatsapps', { ...connection, provider: 'simulator', isDefault: 1, token: randomBytes(24).toString('base64url') })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('whatsappQueues', connectionQueues.map((name) => ({ whatsappId: wa.id, queueId: queueIds.get(name)! }))).execute();
  const actor: Actor = { companyId, userId: admin.id, profile: 'admin', super: false, sessionId: '' };
  await createDemoAutomation(tx, actor, demo, { queueIds, connectionId: wa.id }, secrets);
  return { companyId, connectionId: wa.id, users, conversations: demo.conversations };
}

/** A piece of the fixture read by the schema its REST call reads it with: the same rules as a request. */
function parseFixture<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`fixtures/demo.json: ${what} is refused: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/**
 * What spec/03's screens open on: a flow with the phrase campaign that starts it, and a contact list
 * with a campaign that is never scheduled. Written by the services their REST calls use (the flow
 * saved as its version 1), as the demo admin, in the first start's write.
 */
async function createDemoAutomation(tx: Tx, actor: Actor, demo: DemoFixture, refs: { queueIds: Map<string, number>; connectionId: number }, secrets: SecretBox): Promise<void> {
  const flow = await createFlow(tx, actor, parseFixture(flowCreateSchema, { name: demo.flow.name }, 'the flow'));
  // The editor's own check before a save (web flow-graph.ts checkFlow): the schema refuses, and
  // lintFlow warns; the demo's flow must pass both (every menu option connected, every node reached).
  const body = parseFixture(flowSaveSchema, { idFlow: flow.id, ...demoFlowGraph(demo.flow, refs.queueIds) }, 'the flow');
  const warnings = lintFlow(body.graph);
  if (warnings.length > 0) throw new Error(`fixtures/demo.json: the flow has warnings: ${warnings.map((w) => w.message).join('; ')}`);
  await saveFlowGraph(tx, actor, body, secrets);
  const phrase = { ...demo.phraseCampaign, flowId: flow.id, whatsappId: refs.connectionId, status: true };
  await createPhraseCampaign(tx, actor, parseFixture(phraseCampaignCreateSchema, phrase, 'the phrase campaign'));

  const list = await createContactList(tx, actor, parseFixture(contactListCreateSchema, { name: demo.contactList.name }, 'the contact list'));
  for (const contact of demo.contactList.contacts) {
    await createContactListItem(tx, actor, parseFixture(contactListItemCreateSchema, { ...contact, contactListId: list.id }, `contact ${contact.name}`));
  }
  const input = parseFixture(campaignCreateSchema, { ...demo.campaign, whatsappId: refs.connectionId, contactListId: list.id }, 'the campaign');
  const campaign = await createCampaign(tx, actor, input);
  // Without a scheduledAt it is INATIVA until someone schedules it: the demo never sends it by itself.
  if (campaign.status !== 'INATIVA') throw new Error(`fixtures/demo.json: the campaign must not be scheduled (it would be ${campaign.status})`);
}

/** The fixture's flow as the editor saves it: node ids as the editor draws them, ticket nodes given their queue's id. */
function demoFlowGraph(flow: DemoFixture['flow'], queueIds: Map<string, number>) {
  const ids = new Map(flow.nodes.map((n) => [n.id, n.id === FLOW_START_NODE_ID ? n.id : createFlowNodeId(Math.random)]));
  const nodes = flow.nodes.map((n) => {
    if (n.type !== 'ticket') return { ...n, id: ids.get(n.id)! };
    const name = String((n.data.queue as { name?: unknown } | undefined)?.name);
    const queueId = queueIds.get(name);
    return { ...n, id: ids.get(n.id)!, data: { queueId, queue: { id: queueId, name } } };
  });
  const connections = flow.connections.map((e) => createFlowEdge(ids.get(e.source) ?? e.source, ids.get(e.target) ?? e.target, e.sourceHandle ?? FLOW_HANDLES.next));
  return { nodes, connections };
}
