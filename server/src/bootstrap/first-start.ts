// First start: on an empty database create the platform company with its super-admin and,
// unless SEED_DEMO=0, a demo company from fixtures/demo.json. Later starts change nothing.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DEFAULT_SETTINGS } from '@zapdesk/sync';
import type { AppDeps } from '../context.ts';
import { hashPassword } from '../auth/password.ts';
import { nowIso, type Database } from '../db/database.ts';
import { tenant } from '../db/tenant.ts';

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
export type FirstStartResult = { superAdmin?: Credentials; demo?: DemoResult };

const DEMO_FILE = new URL('../../../fixtures/demo.json', import.meta.url);
const randomPassword = () => `${randomBytes(9).toString('base64url')}A1`;

export async function runFirstStart(deps: AppDeps): Promise<FirstStartResult> {
  const anyUser = await deps.db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (anyUser) return {};
  const superAdmin = await createPlatform(deps);
  if (!deps.config.seedDemo) return { superAdmin };
  return { superAdmin, demo: await createDemo(deps.db, JSON.parse(readFileSync(DEMO_FILE, 'utf8')) as DemoFixture, deps.config.demoPassword) };
}

async function createCompany(db: Database, values: { name: string; email?: string; phone?: string; planId: number; dueDate: string; recurrence?: string }) {
  const company = await db.insertInto('companies').values({ ...values, status: 1 }).returning('id').executeTakeFirstOrThrow();
  await tenant(db, company.id)
    .insertInto('settings', Object.entries(DEFAULT_SETTINGS).map(([key, value]) => ({ key, value })))
    .execute();
  return company.id;
}

async function createPlatform(deps: AppDeps): Promise<Credentials> {
  const password = deps.config.adminPassword ?? randomPassword();
  await deps.db.transaction().execute(async (trx) => {
    const plan = await trx
      .insertInto('plans')
      .values({ name: 'Platform', users: 100, connections: 100, queues: 100, valueCents: 0, isPublic: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const companyId = await createCompany(trx, { name: 'zapdesk', planId: plan.id, dueDate: '2099-12-31T23:59:59.000Z' });
    await tenant(trx, companyId)
      .insertInto('users', { name: 'Super Admin', email: deps.config.adminEmail, passwordHash: await hashPassword(password), profile: 'admin', super: 1 })
      .execute();
  });
  return { email: deps.config.adminEmail, password, generated: !deps.config.adminPassword };
}

async function createDemo(db: Database, demo: DemoFixture, chosenPassword: string | undefined): Promise<DemoResult> {
  const password = chosenPassword ?? randomPassword();
  const passwordHash = await hashPassword(password);
  return db.transaction().execute(async (trx) => {
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
        .insertInto('users', { name: u.name, email: u.email, profile: u.profile, passwordHash, allTicket: 'desabled' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const links = u.queues.map((name) => ({ userId: row.id, queueId: queueIds.get(name)! }));
      if (links.length) await db.insertInto('userQueues', links).execute();
      users.push({ email: u.email, password, generated: !chosenPassword });
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
  });
}
