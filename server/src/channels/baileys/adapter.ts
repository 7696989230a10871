// The Baileys adapter: real WhatsApp through @whiskeysockets/baileys (the only module that talks to
// it). Baileys loads lazily on the first connect, so a server without real connections never pays
// its start-up cost. Tests inject makeSocket and download to drive it with a fake socket.
import type { AnyMessageContent, Contact, MiscMessageGenerationOptions, WAMessage, WASocket, WAVersion } from '@whiskeysockets/baileys';
import { AppError } from '@zapdesk/sync';
import type { Logger } from '../../log.ts';
import type { AuthStore } from '../auth-store.ts';
import { createChannelEmitter } from '../emitter.ts';
import type { AdapterFactory } from '../session-manager.ts';
import type { Ack, Channel, ConnectionStatus, OutboundContent, Peer } from '../types.ts';
import { createCloseHandler, silentLogger, type BaileysPolicy } from './lifecycle.ts';

/** Pinned: fetching the current version at runtime would make every start depend on the network. */
export const WA_VERSION: WAVersion = [2, 3000, 1023223821];

export type MakeSocket = (config: Record<string, unknown>) => Pick<WASocket, 'ev' | 'sendMessage' | 'onWhatsApp' | 'profilePictureUrl' | 'readMessages' | 'logout' | 'end' | 'requestPairingCode'> & {
  user?: { id: string; lid?: string } | undefined;
};

export type BaileysAdapterOptions = {
  log: Logger;
  makeSocket?: MakeSocket;
  download?: (message: WAMessage) => Promise<Buffer>;
  version?: WAVersion;
  policy?: Partial<BaileysPolicy>;
};

// WebMessageInfo.Status → the spec's ack: SERVER_ACK 2 → 1 sent, DELIVERY_ACK 3 → 2, READ 4 → 3, PLAYED 5 → 5.
const ACK_OF_STATUS: Record<number, Ack> = { 2: 1, 3: 2, 4: 3, 5: 5 };

export function toJid(peer: Peer): string {
  if (peer.jid) return peer.jid;
  if (peer.number) return `${peer.number.replace(/\D/g, '')}@s.whatsapp.net`;
  if (peer.lid) return peer.lid;
  throw new AppError('ERR_WAPP_INVALID_CONTACT');
}

export function toContent(content: OutboundContent): AnyMessageContent {
  switch (content.kind) {
    case 'text':
      return { text: content.body };
    case 'location':
      return { location: { degreesLatitude: content.latitude, degreesLongitude: content.longitude, ...(content.description ? { name: content.description } : {}) } };
    case 'vcard':
      return { contacts: { displayName: content.displayName, contacts: [{ vcard: content.vcard }] } };
    case 'media': {
      const caption = content.caption ? { caption: content.caption } : {};
      if (content.mediaType === 'image') return { image: content.data, mimetype: content.mimeType, ...caption };
      if (content.mediaType === 'video') return { video: content.data, mimetype: content.mimeType, ...caption };
      if (content.mediaType === 'audio') return { audio: content.data, mimetype: content.mimeType, ptt: content.ptt ?? false };
      return { document: content.data, mimetype: content.mimeType, fileName: content.fileName, ...caption };
    }
  }
}

/** The address book's key type in baileys_keys: kept with the pairing, wiped with it. */
const CONTACT_KEY = 'zapdesk-contact';

/** A Baileys contact as a peer; groups and broadcast lists are not people. */
export function contactToPeer(contact: Partial<Contact>): Peer | undefined {
  const id = contact.id ?? '';
  if (!id.endsWith('@s.whatsapp.net') && !id.endsWith('@lid')) return undefined;
  const jid = id.endsWith('@s.whatsapp.net') ? id : contact.phoneNumber;
  const lid = id.endsWith('@lid') ? id : contact.lid;
  const name = contact.name ?? contact.notify ?? contact.verifiedName;
  const number = jid ? jid.split('@')[0]!.split(':')[0] : undefined;
  return { ...(jid ? { jid } : {}), ...(lid ? { lid } : {}), ...(number ? { number } : {}), ...(name ? { name } : {}) };
}

export function createBaileysFactory(options: BaileysAdapterOptions): AdapterFactory {
  return (connection, store, onListenerError) => createBaileysChannel(connection, store, options, onListenerError);
}

function createBaileysChannel(
  connection: { id: number; companyId: number; provider: string },
  store: AuthStore,
  options: BaileysAdapterOptions,
  onListenerError: (event: string, err: unknown) => void,
): Channel {
  const events = createChannelEmitter(onListenerError);
  const log = options.log;
  let status: ConnectionStatus = 'DISCONNECTED';
  let sock: ReturnType<MakeSocket> | undefined;
  let closing = false;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let inboundChain: Promise<void> = Promise.resolve();
  // Pairing by code: asked once the socket is ready to pair (its first QR), for this number.
  let pairingCodeFor: string | undefined;
  // The address book: contacts.upsert / contacts.update / messaging-history.set, merged by id.
  // One load shared by every caller: two concurrent first loads must not leave two maps.
  let book: Promise<Map<string, Peer>> | undefined;
  // Writes of the book, one after the other: an update written beside the upsert before it could
  // land first on PostgreSQL's pool and be overwritten by the older name.
  let bookWrites: Promise<void> = Promise.resolve();
  const loadBook = () =>
    (book ??= store.listKeys(CONTACT_KEY).then((stored) => new Map([...stored].map(([id, value]) => [id, JSON.parse(value) as Peer]))));
  const remember = (contacts: Partial<Contact>[]) =>
    void loadBook()
      .then((b) => {
        const changed: { type: string; keyId: string; value: string }[] = [];
        for (const c of contacts) {
          const peer = c.id ? contactToPeer(c) : undefined;
          if (!peer || !c.id) continue;
          const merged = { ...b.get(c.id), ...peer };
          b.set(c.id, merged);
          changed.push({ type: CONTACT_KEY, keyId: c.id, value: JSON.stringify(merged) });
        }
        const write = bookWrites.then(() => store.writeKeys(changed));
        bookWrites = write.catch(() => {});
        return write;
      })
      .catch((err) => log.error('saving baileys contacts failed', { connectionId: connection.id, error: String(err) }));

  const setStatus = (next: ConnectionStatus, detail?: { reason?: string; number?: string; attempt?: number }) => {
    status = next;
    void events.emit('status', next, detail);
  };
  const requireConnected = () => {
    if (status !== 'CONNECTED' || !sock) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    return sock;
  };

  const handleClose = createCloseHandler(options.policy, {
    wipe: () => {
      book = undefined;
      return store.wipe();
    },
    setStatus,
    reconnect: (delayMs) => {
      reconnectTimer = setTimeout(() => void open().catch((err) => log.error('baileys reconnect failed', { connectionId: connection.id, error: String(err) })), delayMs);
      reconnectTimer.unref?.();
    },
  });

  async function open(): Promise<void> {
    reconnectTimer = undefined;
    closing = false;
    const lib = await import('@whiskeysockets/baileys');
    const { loadAuthState } = await import('./auth-state.ts');
    const { toInboundMessage, toMessageChange, toPeer } = await import('./map-message.ts');
    const { state, saveCreds } = await loadAuthState(store);
    const makeSocket = options.makeSocket ?? (lib.makeWASocket as unknown as MakeSocket);
    const download = options.download ?? ((m: WAMessage) => lib.downloadMediaMessage(m, 'buffer', {}));
    const current = makeSocket({
      auth: state,
      version: options.version ?? WA_VERSION,
      logger: silentLogger(log),
      browser: lib.Browsers.ubuntu('zapdesk'),
      markOnlineOnConnect: false,
      syncFullHistory: false,
      shouldSyncHistoryMessage: () => false,
      getMessage: async () => undefined,
    });
    sock = current;
    handleClose.opened();
    const stale = () => sock !== current;

    current.ev.on('creds.update', () => void saveCreds().catch((err) => log.error('saving baileys creds failed', { connectionId: connection.id, error: String(err) })));
    current.ev.on('connection.update', (update) => {
      if (stale()) return;
      if (update.qr) {
        const attempt = handleClose.qrShown();
        if (attempt === undefined) {
          // Our own cap: WhatsApp would keep issuing refs; a QR nobody scans should end in TIMEOUT.
          closing = true;
          current.end(undefined);
          setStatus('TIMEOUT', { reason: 'QR refs attempts ended' });
          return;
        }
        status = 'qrcode';
        void events.emit('qr', update.qr, attempt);
        const phone = pairingCodeFor;
        pairingCodeFor = undefined;
        if (phone) {
          current
            .requestPairingCode(phone)
            .then((code) => void events.emit('pairingCode', code.length === 8 ? `${code.slice(0, 4)}-${code.slice(4)}` : code))
            .catch((err) => log.error('baileys pairing code failed', { connectionId: connection.id, error: String(err) }));
        }
      }
      if (update.isNewLogin) setStatus('PAIRING');
      if (update.connection === 'open') {
        handleClose.connected();
        const number = current.user?.id ? current.user.id.split('@')[0]!.split(':')[0]! : undefined;
        setStatus('CONNECTED', number ? { number } : undefined);
      }
      if (update.connection === 'close' && !closing) {
        sock = undefined;
        void handleClose.closed(update.lastDisconnect?.error);
      }
    });
    current.ev.on('messages.upsert', ({ messages, type }) => {
      if (stale() || (type !== 'notify' && type !== 'append')) return;
      // In arrival order: a media download must not let the next text overtake it.
      inboundChain = inboundChain.then(async () => {
        for (const m of messages) {
          const inbound = await toInboundMessage(m, download).catch((err) => {
            log.error('mapping a baileys message failed', { connectionId: connection.id, error: String(err) });
            return undefined;
          });
          if (inbound) await events.emit('message', inbound);
        }
      });
    });
    current.ev.on('contacts.upsert', (contacts) => !stale() && remember(contacts));
    current.ev.on('contacts.update', (contacts) => !stale() && remember(contacts));
    current.ev.on('messaging-history.set', ({ contacts }) => !stale() && remember(contacts));
    current.ev.on('messages.update', (updates) => {
      if (stale()) return;
      for (const { key, update } of updates) {
        const ack = update.status != null ? ACK_OF_STATUS[update.status] : undefined;
        if (key.id && ack !== undefined) void events.emit('ack', { id: key.id, ack, ...(key.remoteJid ? { to: { jid: key.remoteJid } } : {}) });
        // Edits and revokes: Baileys turns their protocol messages into updates of the original id.
        const change = key.id ? toMessageChange(key.id, update) : undefined;
        if (change) inboundChain = inboundChain.then(() => events.emit('change', change));
      }
    });
    current.ev.on('call', (calls) => {
      if (stale()) return;
      // The platform never answers calls: every offer is a missed call for the attendants.
      for (const call of calls) {
        if (call.status !== 'offer') continue;
        void events.emit('call', { id: call.id, from: toPeer(call.from, call.callerPn), timestamp: new Date(call.date ?? Date.now()).toISOString(), video: !!call.isVideo });
      }
    });
  }

  const shut = () => {
    closing = true;
    if (reconnectTimer) clearTimeout(reconnectTimer);
    reconnectTimer = undefined;
    const s = sock;
    sock = undefined;
    return s;
  };

  return {
    connectionId: connection.id,
    provider: connection.provider,
    status: () => status,
    on: (event, listener) => events.on(event, listener),
    async connect(opts) {
      if (sock || reconnectTimer) return;
      pairingCodeFor = opts?.pairingCodeFor;
      handleClose.reset();
      setStatus('OPENING');
      await open();
    },
    async disconnect() {
      shut()?.end(undefined);
      setStatus('DISCONNECTED');
    },
    async logout(opts) {
      const s = shut();
      await s?.logout().catch(() => undefined);
      s?.end(undefined);
      if (!opts?.keepStore) await store.wipe();
      book = undefined;
      setStatus('DISCONNECTED', { reason: 'loggedOut' });
    },
    async send(request) {
      const s = requireConnected();
      const jid = toJid(request.to);
      const opts: MiscMessageGenerationOptions = {};
      if (request.quotedId) opts.quoted = { key: { remoteJid: jid, id: request.quotedId }, message: { conversation: '' } };
      try {
        const sent = await s.sendMessage(jid, toContent(request.content), opts);
        if (!sent?.key.id) throw new Error('no message id');
        return { id: sent.key.id, timestamp: new Date().toISOString() };
      } catch (err) {
        log.warn('baileys send failed', { connectionId: connection.id, error: String(err) });
        throw new AppError('ERR_SENDING_WAPP_MSG');
      }
    },
    async checkNumbers(numbers) {
      const s = requireConnected();
      const digits = numbers.map((n) => n.replace(/\D/g, ''));
      const found = await s.onWhatsApp(...digits.map((d) => `${d}@s.whatsapp.net`)).catch(() => {
        throw new AppError('ERR_WAPP_CHECK_CONTACT');
      });
      return numbers.map((number, i) => {
        const hit = found?.find((r) => r.exists && r.jid.split('@')[0] === digits[i]);
        return hit ? { number, exists: true, jid: hit.jid } : { number, exists: false };
      });
    },
    async profilePictureUrl(peer) {
      const s = requireConnected();
      return (await s.profilePictureUrl(toJid(peer), 'image').catch(() => undefined)) ?? undefined;
    },
    async markRead(peer, messageIds) {
      const s = requireConnected();
      const remoteJid = toJid(peer);
      await s.readMessages(messageIds.map((id) => ({ remoteJid, id, fromMe: false })));
    },
    async deleteMessage(peer, messageId) {
      const s = requireConnected();
      const jid = toJid(peer);
      await s.sendMessage(jid, { delete: { remoteJid: jid, fromMe: true, id: messageId } }).catch(() => {
        throw new AppError('ERR_DELETE_WAPP_MSG');
      });
    },
    async listContacts() {
      return [...(await loadBook()).values()];
    },
  };
}
