// The view registry: every entity of the client view, in one list. A module joins the sync by
// writing its view (modules/<entity>/view.ts, or views/<entity>.ts for those not moved yet) and
// adding it here; the engine (pull.ts) never changes for that.
import { announcementsView } from './announcements.ts';
import { chatMessagesView, chatsView } from './chats.ts';
import { companyView } from './company.ts';
import { mutationErrorsView } from './mutation-errors.ts';
import { settingsView } from './settings.ts';
import { ticketNotesView } from './ticket-notes.ts';
import { ticketContactsView, ticketMessagesView, ticketsView } from './tickets.ts';
import type { SyncView } from './types.ts';
import { usersView } from './users.ts';
import { ownQuickMessagesView, sharedQuickMessagesView } from '../../modules/quick-messages/view.ts';
import { queuesView } from '../../modules/queues/view.ts';
import { schedulesView } from '../../modules/schedules/view.ts';
import { tagsView } from '../../modules/tags/view.ts';
import { connectionsView } from '../../modules/whatsapps/view.ts';

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
