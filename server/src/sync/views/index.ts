// The view registry: every entity of the client view, in one list. A module joins the sync by
// writing views/<entity>.ts and adding it here; the engine (pull.ts) never changes for that.
import { announcementsView } from '../../modules/announcements/view.ts';
import { chatMessagesView, chatsView } from './chats.ts';
import { companyView } from '../../modules/companies/view.ts';
import { connectionsView } from './connections.ts';
import { mutationErrorsView } from './mutation-errors.ts';
import { ownQuickMessagesView, sharedQuickMessagesView } from './quick-messages.ts';
import { queuesView } from './queues.ts';
import { schedulesView } from './schedules.ts';
import { settingsView } from '../../modules/settings/view.ts';
import { tagsView } from './tags.ts';
import { ticketNotesView } from './ticket-notes.ts';
import { ticketContactsView, ticketMessagesView, ticketsView } from './tickets.ts';
import type { SyncView } from './types.ts';
import { usersView } from '../../modules/users/view.ts';

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
