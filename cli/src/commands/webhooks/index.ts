import type { Group } from '../../define.ts';
import create from './create.ts';
import deleteWebhook from './delete.ts';
import deliveries from './deliveries.ts';
import list from './list.ts';
import test from './test.ts';
import update from './update.ts';

export const webhooks: Group = {
  description: 'Company webhooks: register URLs for events, send a test, read the delivery log (admins)',
  commands: { list, create, update, delete: deleteWebhook, test, deliveries },
};
