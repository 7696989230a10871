// The dashboard's numbers (spec/02 §3), aggregated in SQL on both dialects. Only the time
// difference differs: SQLite stores ISO text and subtracts julianday()s, PostgreSQL subtracts
// timestamptz. Per-day charts group by UTC hour in SQL (at most 24 rows a day) and fold the hours
// into the zone's local days or hours here, which is exact for every zone whose offset is whole
// hours (a :30/:45 zone's buckets are off by that part of an hour).
import type { DashboardAttendant, DashboardCounters, DashboardData, TicketsDayData, TicketsDayRow, TicketsUsersData } from '@zapdesk/sync';
import { zonedParts } from '@zapdesk/sync';
import { sql, type Expression, type RawBuilder } from 'kysely';
import type { Database, Dialect } from '../../db/database.ts';
import { tenant } from '../../db/tenant.ts';
import { addDays, type Period } from './period.ts';

/** Minutes from `start` to `end`; null when either is null. */
function minutesBetween(dialect: Dialect, end: Expression<string | null>, start: Expression<string | null>): RawBuilder<number | null> {
  return dialect === 'postgres' ? sql<number | null>`extract(epoch from (${end} - ${start})) / 60` : sql<number | null>`(julianday(${end}) - julianday(${start})) * 1440`;
}

const round2 = (v: number | string | null | undefined) => (v === null || v === undefined ? 0 : Math.round(Number(v) * 100) / 100);
const iso = (d: Date) => d.toISOString();

/** The service cycles (ticket trackings) finished in the period. */
function finishedCycles(db: Database, companyId: number, period: Period) {
  return tenant(db, companyId)
    .selectFrom('ticketTrackings')
    .where('ticketTrackings.finishedAt', '>=', iso(period.from))
    .where('ticketTrackings.finishedAt', '<', iso(period.to));
}

export async function getDashboard(db: Database, dialect: Dialect, companyId: number, period: Period): Promise<DashboardData> {
  const t = tenant(db, companyId);
  const cycles = await finishedCycles(db, companyId, period)
    .select((eb) => [
      eb.fn.countAll<number>().as('finished'),
      eb.fn.avg<number | null>(minutesBetween(dialect, eb.ref('ticketTrackings.finishedAt'), eb.ref('ticketTrackings.startedAt'))).as('avgSupport'),
      // A cycle that never waited in a queue waited from its start (created or reopened).
      eb.fn
        .avg<number | null>(minutesBetween(dialect, eb.ref('ticketTrackings.startedAt'), eb.fn.coalesce('ticketTrackings.queuedAt', 'ticketTrackings.createdAt')))
        .as('avgWait'),
    ])
    .executeTakeFirstOrThrow();
  const byStatus = await t
    .selectFrom('tickets')
    .select((eb) => ['tickets.status', eb.fn.countAll<number>().as('n')])
    .where('tickets.status', 'in', ['open', 'pending'])
    .groupBy('tickets.status')
    .execute();
  const { n: newContacts } = await t
    .selectFrom('contacts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('contacts.isGroup', '=', 0)
    .where('contacts.createdAt', '>=', iso(period.from))
    .where('contacts.createdAt', '<', iso(period.to))
    .executeTakeFirstOrThrow();
  const statusCount = (s: string) => Number(byStatus.find((r) => r.status === s)?.n ?? 0);
  const counters: DashboardCounters = {
    supportHappening: statusCount('open'),
    supportPending: statusCount('pending'),
    supportFinished: Number(cycles.finished),
    avgSupportTime: round2(cycles.avgSupport),
    avgWaitTime: round2(cycles.avgWait),
    newContacts: Number(newContacts),
    leads: Number(newContacts),
  };
  return { counters, attendants: await findAttendants(db, dialect, companyId, period), period: { from: iso(period.from), to: iso(period.to), timeZone: period.timeZone } };
}

/** Every user of the company, with what they finished and how they were rated in the period. */
async function findAttendants(db: Database, dialect: Dialect, companyId: number, period: Period): Promise<DashboardAttendant[]> {
  const t = tenant(db, companyId);
  const users = await t.selectFrom('users').select(['users.id', 'users.name', 'users.online']).orderBy('users.name').orderBy('users.id').execute();
  const work = await finishedCycles(db, companyId, period)
    .where('ticketTrackings.userId', 'is not', null)
    .select((eb) => [
      'ticketTrackings.userId',
      eb.fn.countAll<number>().as('tickets'),
      eb.fn.avg<number | null>(minutesBetween(dialect, eb.ref('ticketTrackings.finishedAt'), eb.ref('ticketTrackings.startedAt'))).as('avgSupport'),
    ])
    .groupBy('ticketTrackings.userId')
    .execute();
  const ratings = await t
    .selectFrom('userRatings')
    .where('userRatings.userId', 'is not', null)
    .where('userRatings.createdAt', '>=', iso(period.from))
    .where('userRatings.createdAt', '<', iso(period.to))
    .select((eb) => ['userRatings.userId', eb.fn.avg<number>('userRatings.rate').as('rating')])
    .groupBy('userRatings.userId')
    .execute();
  const workBy = new Map(work.map((w) => [w.userId, w]));
  const ratingBy = new Map(ratings.map((r) => [r.userId, r.rating]));
  return users.map((u) => ({
    id: u.id,
    name: u.name,
    rating: round2(ratingBy.get(u.id)),
    avgSupportTime: round2(workBy.get(u.id)?.avgSupport),
    online: u.online === 1,
    tickets: Number(workBy.get(u.id)?.tickets ?? 0),
  }));
}

/** Tickets created in the period, per user holding them (unassigned ones are not counted), most first. */
export async function getTicketsPerUser(db: Database, companyId: number, period: Period): Promise<TicketsUsersData> {
  const rows = await tenant(db, companyId)
    .selectFrom('tickets')
    .innerJoin('users', 'users.id', 'tickets.userId')
    .where('tickets.createdAt', '>=', iso(period.from))
    .where('tickets.createdAt', '<', iso(period.to))
    .select((eb) => ['users.id', 'users.name', eb.fn.countAll<number>().as('n')])
    .groupBy(['users.id', 'users.name'])
    .execute();
  const data = rows
    .map((r) => ({ nome: r.name, quantidade: Number(r.n) }))
    .sort((a, b) => b.quantidade - a.quantidade || a.nome.localeCompare(b.nome));
  return { data, count: data.reduce((sum, r) => sum + r.quantidade, 0) };
}

/**
 * Tickets created per local day of the period (`data` dd/MM/yyyy), or per local hour (`horario`
 * "00".."23") when the period is one day; empty buckets are included so charts keep their axis.
 */
export async function getTicketsPerDay(db: Database, dialect: Dialect, companyId: number, period: Period, days: { first: string; last: string }): Promise<TicketsDayData> {
  const hourKey =
    dialect === 'postgres' ? sql<string>`to_char(tickets.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24')` : sql<string>`substr(tickets.created_at, 1, 13)`;
  const rows = await tenant(db, companyId)
    .selectFrom('tickets')
    .where('tickets.createdAt', '>=', iso(period.from))
    .where('tickets.createdAt', '<', iso(period.to))
    .select((eb) => [hourKey.as('hour'), eb.fn.countAll<number>().as('n')])
    .groupBy(hourKey)
    .execute();
  const perHour = days.first === days.last;
  const buckets = new Map<string, number>();
  if (perHour) for (let h = 0; h < 24; h++) buckets.set(String(h).padStart(2, '0'), 0);
  else for (let d = days.first; d <= days.last; d = addDays(d, 1)) buckets.set(`${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`, 0);
  let count = 0;
  for (const r of rows) {
    const p = zonedParts(new Date(`${r.hour}:00:00.000Z`), period.timeZone);
    const key = perHour ? p.hour : `${p.day}/${p.month}/${p.year}`;
    // An hour outside the local days (a DST edge) is still counted in the total.
    if (buckets.has(key)) buckets.set(key, buckets.get(key)! + Number(r.n));
    count += Number(r.n);
  }
  const data: TicketsDayRow[] = [...buckets].map(([key, total]) => (perHour ? { horario: key, total } : { data: key, total }));
  return { data, count };
}
