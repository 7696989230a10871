import type { User } from '@zapdesk/sync';
import { column, type Shown } from '../../present.ts';

export const userColumns = [
  column<User>('id', (u) => u.id),
  column<User>('name', (u) => u.name),
  column<User>('email', (u) => u.email),
  column<User>('profile', (u) => (u.super ? `${u.profile}*` : u.profile)),
  column<User>('queues', (u) => u.queues.map((q) => q.name)),
  column<User>('online', (u) => u.online),
];

export const showUser = (u: User): Shown => ({
  kind: 'record',
  title: `User ${u.id}: ${u.name}`,
  fields: [
    ['email', u.email],
    ['profile', u.super ? `${u.profile}, super-admin` : u.profile],
    ['company', u.companyId],
    ['queues', u.queues.map((q) => `${q.name} (${q.id})`)],
    ['connection', u.whatsappId],
    ['all tickets', u.allTicket],
    ['no-queue tickets', u.showNoQueue],
    ['language', u.language],
    ['online', u.online],
    ['created', u.createdAt],
  ],
});
