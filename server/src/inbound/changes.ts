// Edits and revokes from the network (spec/02 §2.2: "edited and deleted marks"): the contact changed
// a message that is already stored. One conditional update each, version bumped so every client's
// view moves; the ticket's list line follows when the changed message is the ticket's latest.
import type { MessageChange } from '../channels/types.ts';
import type { AppDeps } from '../context.ts';
import { tenant } from '../db/tenant.ts';
import { write } from '../db/write.ts';
import { change, emit } from '../events/emit.ts';
import { previewOf } from '../modules/messages/dto.ts';

/**
 * Marks the message (connection, WhatsApp id) edited with its new text, or deleted. A message not
 * stored here (older than the platform, or ignored as a group message) changes nothing; a deleted
 * message is never edited back to life. Answers whether a row changed.
 */
export async function applyMessageChange(deps: AppDeps, connection: { id: number; companyId: number }, edit: MessageChange): Promise<boolean> {
  return write(deps, async (tx) => {
    const t = tenant(tx.db, connection.companyId);
    const now = new Date().toISOString();
    const values = edit.kind === 'edit' ? { body: edit.body, isEdited: 1 } : { isDeleted: 1 };
    const updated = await t
      .updateTable('messages')
      .set((eb) => ({ ...values, updatedAt: now, version: eb('messages.version', '+', 1) }))
      .where('messages.whatsappId', '=', connection.id)
      .where('messages.wid', '=', edit.id)
      .where('messages.isDeleted', '=', 0)
      .returning(['messages.id', 'messages.ticketId', 'messages.mediaType'])
      .executeTakeFirst();
    if (!updated) return false;
    // The list line shows the latest message: keep it truthful when that is the one that changed.
    const latest = await t
      .selectFrom('messages')
      .select('messages.id')
      .where('messages.ticketId', '=', updated.ticketId)
      .orderBy('messages.id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (latest?.id === updated.id) {
      const line = edit.kind === 'edit' ? previewOf(edit.body, updated.mediaType) : '';
      // The version moves, not updatedAt: an edit must not lift the ticket to the top of the list.
      await t
        .updateTable('tickets')
        .set((eb) => ({ lastMessage: line, version: eb('tickets.version', '+', 1) }))
        .where('tickets.id', '=', updated.ticketId)
        .execute();
      await emit(tx, change(connection.companyId, 'ticket', 'update', updated.ticketId));
    }
    tx.effects.poke(connection.companyId);
    await emit(tx, change(connection.companyId, 'appMessage', 'update', updated.id));
    return true;
  });
}
