// The bot's menus: the connection's queue list and each queue's options tree, as text the contact
// answers with a number (or `#` to go back to the queue list).
import type { Database } from '../db/database.ts';
import { tenant } from '../db/tenant.ts';
import { texts } from './texts.ts';

export type MenuQueue = { id: number; name: string; greetingMessage: string | null; outOfHoursMessage: string | null; schedules: string; integrationId: number | null; promptId: number | null };
export type MenuOption = { id: number; title: string; message: string | null; option: number; parentId: number | null };

export async function findConnectionQueues(db: Database, companyId: number, connectionId: number): Promise<MenuQueue[]> {
  return tenant(db, companyId)
    .selectFrom('whatsappQueues')
    .innerJoin('queues', 'queues.id', 'whatsappQueues.queueId')
    .select(['queues.id', 'queues.name', 'queues.greetingMessage', 'queues.outOfHoursMessage', 'queues.schedules', 'queues.integrationId', 'queues.promptId'])
    .where('whatsappQueues.whatsappId', '=', connectionId)
    .orderBy('queues.orderQueue')
    .orderBy('queues.id')
    .execute();
}

/** The options under a node of a queue's tree (parentId null: the top level), by position. */
export async function findOptions(db: Database, companyId: number, queueId: number, parentId: number | null): Promise<MenuOption[]> {
  return tenant(db, companyId)
    .selectFrom('queueOptions')
    .select(['queueOptions.id', 'queueOptions.title', 'queueOptions.message', 'queueOptions.option', 'queueOptions.parentId'])
    .where('queueOptions.queueId', '=', queueId)
    .where((eb) => (parentId === null ? eb('queueOptions.parentId', 'is', null) : eb('queueOptions.parentId', '=', parentId)))
    .orderBy('queueOptions.option')
    .orderBy('queueOptions.id')
    .execute();
}

export async function findOption(db: Database, companyId: number, optionId: number): Promise<MenuOption | undefined> {
  return tenant(db, companyId)
    .selectFrom('queueOptions')
    .select(['queueOptions.id', 'queueOptions.title', 'queueOptions.message', 'queueOptions.option', 'queueOptions.parentId'])
    .where('queueOptions.id', '=', optionId)
    .executeTakeFirst();
}

/** "3", " 3 ", "3." → 3; anything else → undefined. */
export function parseChoice(body: string): number | undefined {
  const m = /^\s*(\d{1,3})\s*\.?\s*$/.exec(body);
  return m ? Number(m[1]) : undefined;
}

export const isBack = (body: string) => body.trim() === '#';

const join = (...parts: (string | null | undefined)[]) => parts.map((p) => p?.trim()).filter(Boolean).join('\n\n');

export function queueMenuText(greeting: string | null, queues: MenuQueue[]): string {
  return join(greeting, queues.map((q, i) => `*${i + 1}* - ${q.name}`).join('\n'));
}

export function optionsMenuText(intro: string | null, options: MenuOption[], withBack: boolean): string {
  const lines = options.map((o) => `*${o.option}* - ${o.title}`);
  if (withBack) lines.push(texts(null).back);
  return join(intro, lines.join('\n'));
}
