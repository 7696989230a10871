// What a user may do with a row of the contacts page (spec/02 §2.12, §6): everyone opens a ticket,
// edits and imports; deleting follows contacts-page:deleteContact (admins and supervisors).
import { can, type Subject } from '@zapdesk/sync';

export type ContactRowActions = { openTicket: boolean; edit: boolean; delete: boolean };

export function contactRowActions(user: Subject): ContactRowActions {
  return { openTicket: true, edit: true, delete: can(user, 'contacts-page:deleteContact') };
}
