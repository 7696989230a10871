// The view registry: every entity of the client view, in one list. A module joins the sync by
// writing its view (modules/<entity>/view.ts; views/ keeps the protocol's own, mutation errors) and
// adding it here; the engine (pull.ts) never changes for that.
import { announcementsView } from '../../modules/announcements/view.ts';
import { chatMessagesView, chatsView } from '../../modules/chats/view.ts';
import { companyView } from '../../modules/companies/view.ts';
import { ticketContactsView } from '../../modules/contacts/view.ts';
import { ticketMessagesView } from '../../modules/messages/view.ts';
import { ownQuickMessagesView, sharedQuickMessagesView } from '../../modules/quick-messages/view.ts';
import { queuesView } from '../../modules/queues/view.ts';
import { schedulesView } from '../../modules/schedules/view.ts';
import { settingsView } from '../../modules/settings/view.ts';
import { tagsView } from '../../modules/tags/view.ts';
import { ticketNotesView } from '../../modules/ticket-notes/view.ts';
import { ticketsView } from '../../modules/tickets/view.ts';
import { usersView } from '../../modules/users/view.ts';
import { connectionsView } from '../../modules/whatsapps/view.ts';
import { mutationErrorsView } from './mutation-errors.ts';
import type { SyncView } from './types.ts';

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
