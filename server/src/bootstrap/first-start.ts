// First start: on an empty database create the platform company with its super-admin and,
// unless SEED_DEMO=0, a demo company from fixtures/demo.json, in one write. Later starts change nothing.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DEFAULT_SETTINGS } from '@zapdesk/sync';
import { sql } from 'kysely';
import type { AppDeps } from '../context.ts';
import { hashPassword } from '../auth/password.ts';
import { nowIso, type Database } from '../db/database.ts';
import { tenant } from '../db/tenant.ts';
import { write } from '../db/write.ts';

type DemoFixture = {
  plan: { name: string; users: number; connections: number; queues: number; valueCents: number };
  company: { name: string; email: string; phone: string; recurrence: string; dueInDays: number };
  users: { name: string; email: string; profile: string; queues: string[] }[];
  queues: { name: string; color: string; greetingMessage: string; orderQueue: number }[];
  tags: { name: string; color: string; kanban: number }[];
  connection: { name: string; greetingMessage: string; queues: string[] };
  conversations: { from: string; name: string; messages: string[] }[];
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
    return { superAdmin, demo: await createDemo(tx.db, fixture, demoLogin) };
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

async function createDemo(trx: Database, demo: DemoFixture, login: { password: string; hash: string; generated: boolean }): Promise<DemoResult> {
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
  return { companyId, connectionId: wa.id, users, conversations: demo.conversations };
}
