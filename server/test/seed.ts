// Seed helpers for tests: companies, plans and users built straight into a fresh database.
import { DEFAULT_SETTINGS } from '@zapdesk/sync';
import { hashPassword } from '../src/auth/password.ts';
import { tenant } from '../src/db/tenant.ts';
import type { TestApp } from './harness.ts';

let seq = 0;
const next = () => `${Date.now().toString(36)}${(++seq).toString(36)}`;

export type PlanFlagsInput = Partial<Record<'useCampaigns' | 'useSchedules' | 'useInternalChat' | 'useExternalApi' | 'useKanban' | 'useOpenAi' | 'useIntegrations', 0 | 1>>;

export async function seedPlan(t: TestApp, values: { name?: string; users?: number; connections?: number; queues?: number } & PlanFlagsInput = {}) {
  return t.db
    .insertInto('plans')
    .values({ name: values.name ?? `Plan ${next()}`, users: 10, connections: 10, queues: 10, valueCents: 4900, ...values })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function seedCompany(t: TestApp, values: { name?: string; planId?: number; dueDate?: string | null; status?: 0 | 1 } = {}) {
  const planId = values.planId ?? (await seedPlan(t)).id;
  const company = await t.db
    .insertInto('companies')
    .values({
      name: values.name ?? `Company ${next()}`,
      planId,
      status: values.status ?? 1,
      dueDate: values.dueDate === undefined ? new Date(Date.now() + 30 * 86400_000).toISOString() : values.dueDate,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await tenant(t.db, company.id)
    .insertInto('settings', Object.entries(DEFAULT_SETTINGS).map(([key, value]) => ({ key, value })))
    .execute();
  return company;
}

export async function seedUser(
  t: TestApp,
  companyId: number,
  values: { name?: string; email?: string; password?: string; profile?: 'admin' | 'user' | 'supervisor'; super?: 0 | 1 } = {},
) {
  const password = values.password ?? 'Secret123';
  const user = await tenant(t.db, companyId)
    .insertInto('users', {
      name: values.name ?? `User ${next()}`,
      email: values.email ?? `user-${next()}@example.test`,
      passwordHash: await hashPassword(password),
      profile: values.profile ?? 'user',
      super: values.super ?? 0,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...user, password };
}

/** Logs in through the API and returns the access token and the refresh cookie. */
export async function loginAs(t: TestApp, user: { email: string; password: string }) {
  const res = await t.request('POST', '/auth/login', { body: { email: user.email, password: user.password } });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('jrt='))?.split(';')[0];
  return { token: res.body.token as string, cookie: cookie!, body: res.body };
}

/** A company with an admin and an attendant, logged in: the usual start of a test. */
export async function seedTenant(t: TestApp, plan: PlanFlagsInput & { users?: number } = {}) {
  const p = await seedPlan(t, plan);
  const company = await seedCompany(t, { planId: p.id });
  const admin = await seedUser(t, company.id, { profile: 'admin' });
  const user = await seedUser(t, company.id, { profile: 'user' });
  return { plan: p, company, admin, user, adminSession: await loginAs(t, admin), userSession: await loginAs(t, user) };
}

/** The platform super-admin, in a company of their own. */
export async function seedSuper(t: TestApp) {
  const company = await seedCompany(t, { name: `Platform ${next()}` });
  const superUser = await seedUser(t, company.id, { profile: 'admin', super: 1 });
  return { company, superUser, session: await loginAs(t, superUser) };
}

/** A queue of a company; names and colours are unique per company, so both default to fresh ones. */
export async function seedQueue(t: TestApp, companyId: number, values: { name?: string; color?: string } = {}) {
  const id = next();
  return tenant(t.db, companyId)
    .insertInto('queues', { name: values.name ?? `Queue ${id}`, color: values.color ?? `#${seq.toString(16).padStart(6, '0')}` })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A WhatsApp connection of a company (the simulator provider: nothing connects in tests). */
export async function seedConnection(t: TestApp, companyId: number, values: { name?: string } = {}) {
  return tenant(t.db, companyId)
    .insertInto('whatsapps', { name: values.name ?? `Connection ${next()}`, provider: 'simulator' })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A contact of a company, inserted directly (numbers are unique per company, so the default is fresh). */
export async function seedContact(t: TestApp, companyId: number, values: { name?: string; number?: string } = {}) {
  return tenant(t.db, companyId)
    .insertInto('contacts', { name: values.name ?? `Contact ${next()}`, number: values.number ?? `55${Date.now()}${++seq}` })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A ticket of a company, inserted directly (with a fresh contact unless one is given). */
export async function seedTicket(
  t: TestApp,
  companyId: number,
  values: { contactId?: number; status?: 'open' | 'pending' | 'closed'; queueId?: number | null; queueOptionId?: number | null; userId?: number | null; lastMessage?: string } = {},
) {
  const contactId = values.contactId ?? (await seedContact(t, companyId)).id;
  return tenant(t.db, companyId)
    .insertInto('tickets', {
      uuid: crypto.randomUUID(),
      contactId,
      status: values.status ?? 'open',
      queueId: values.queueId ?? null,
      queueOptionId: values.queueOptionId ?? null,
      userId: values.userId ?? null,
      lastMessage: values.lastMessage ?? '',
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Puts a user in queues (the ticket scope of attendants is their queues). */
export async function seedUserQueues(t: TestApp, companyId: number, userId: number, queueIds: number[]) {
  await tenant(t.db, companyId).insertInto('userQueues', queueIds.map((queueId) => ({ userId, queueId }))).execute();
}
