// Wires the inbound pipeline to the session manager: every message and ack a channel reports goes
// through ingest(), applyAck() and applyMessageChange(); a connection that connects starts the
// WhatsApp checks of contact lists left unchecked. Listener failures are logged, never thrown into the adapter.
import type { AppDeps } from '../context.ts';
import { checkCompanyContactLists } from '../modules/contact-lists/whatsapp-check.ts';
import { refreshProfilePicture } from '../modules/contacts/profile-picture.ts';
import { applyAck } from './acks.ts';
import { applyMessageChange } from './changes.ts';
import { ingest } from './ingest.ts';

export { ingest, type IngestResult } from './ingest.ts';
export { applyAck } from './acks.ts';
export { applyMessageChange } from './changes.ts';

export function attachPipeline(deps: AppDeps): () => void {
  const offInbound = deps.sessions.onInbound(async (e) => {
    try {
      const result = await ingest(deps, { id: e.connectionId, companyId: e.companyId }, e.message);
      // After the commit and in the background (a channel's inbound order must not wait on it); not
      // even a read when the contact row the message was stored with shows a recent check.
      if (result.status === 'stored' && result.pictureDue) void refreshProfilePicture(deps, { companyId: e.companyId, contactId: result.contactId, connectionId: e.connectionId });
    } catch (err) {
      deps.log.error('inbound message failed', { connectionId: e.connectionId, messageId: e.message.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    }
  });
  const offAck = deps.sessions.onAck(async (e) => {
    try {
      await applyAck(deps, { id: e.connectionId, companyId: e.companyId }, e);
    } catch (err) {
      deps.log.error('ack failed', { connectionId: e.connectionId, messageId: e.id, error: err instanceof Error ? err.message : String(err) });
    }
  });
  const offChange = deps.sessions.onChange(async (e) => {
    try {
      await applyMessageChange(deps, { id: e.connectionId, companyId: e.companyId }, e.change);
    } catch (err) {
      deps.log.error('message change failed', { connectionId: e.connectionId, messageId: e.change.id, error: err instanceof Error ? err.message : String(err) });
    }
  });
  // Numbers of contact lists left unchecked while no connection was up are asked once one is.
  const offStatus = deps.sessions.onStatus((e) => {
    if (e.status === 'CONNECTED') void checkCompanyContactLists(deps, e.companyId);
  });
  return () => {
    offStatus();
    offInbound();
    offAck();
    offChange();
  };
}
