// The view registry: every entity of the client view, in one list. A module joins the sync by
// writing views/<entity>.ts and adding it here; the engine (pull.ts) never changes for that.
import { announcementsView } from './announcements.ts';
import { chatMessagesView, chatsView } from '../../modules/chats/view.ts';
import { companyView } from './company.ts';
import { connectionsView } from './connections.ts';
import { mutationErrorsView } from './mutation-errors.ts';
import { ownQuickMessagesView, sharedQuickMessagesView } from './quick-messages.ts';
import { queuesView } from './queues.ts';
import { schedulesView } from './schedules.ts';
import { settingsView } from './settings.ts';
import { tagsView } from './tags.ts';
import { ticketNotesView } from '../../modules/ticket-notes/view.ts';
import { ticketContactsView } from '../../modules/contacts/view.ts';
import { ticketMessagesView } from '../../modules/messages/view.ts';
import { ticketsView } from '../../modules/tickets/view.ts';
import type { SyncView } from './types.ts';
import { usersView } from './users.ts';

export const VIEWS: readonly SyncView[] = [
  companyView,
  settingsView,
  usersView,
  queuesView,
  tagsView,
  sharedQuickMessagesView,
  ownQuickMessagesView,
  schedulesView,
  announcementsView,
  chatsView,
  chatMessagesView,
  ticketNotesView,
  ticketsView,
  ticketContactsView,
  ticketMessagesView,
  connectionsView,
  mutationErrorsView,
] as SyncView[];
