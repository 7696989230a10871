// One simulated WhatsApp account: QR pairing completed by a scan, reconnects after a network drop,
// a logged-out or replaced session, sends recorded in the phone's outbox (slowed down or failed by
// the phone's faults). It speaks the Channel interface exactly as the Baileys adapter does, so
// everything above it cannot tell them apart.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '@zapdesk/sync';
import type { AuthStore } from '../auth-store.ts';
import { createChannelEmitter } from '../emitter.ts';
import { simulatedProfilePicture } from './avatar.ts';
import type { Ack, Channel, ConnectionStatus, InboundMessage, MessageChange, Peer, SendRequest } from '../types.ts';

export type SimulatorOptions = {
  /** Time between QR refreshes while nobody scans (WhatsApp: about 20 s). */
  qrIntervalMs: number;
  /** QR codes shown before giving up with TIMEOUT ("QR refs attempts ended"). */
  qrMaxAttempts: number;
  /** Delay before a dropped network connection comes back. */
  reconnectDelayMs: number;
  /** When the recipients' phones confirm a send as delivered, and as read, until the faults control changes it (`SendFaults`). */
  deliverAfterMs: number;
  readAfterMs: number;
};

export type OutboxEntry = {
  id: string;
  to: string;
  kind: 'text' | 'media' | 'location' | 'vcard';
  body: string;
  mediaType?: string;
  fileName?: string;
  mimeType?: string;
  size?: number;
  location?: { latitude: number; longitude: number; description?: string };
  vcard?: string;
  quotedId?: string;
  ack: Ack;
  timestamp: string;
  deleted: boolean;
};

/**
 * How the phone's sends behave: a delay before WhatsApp accepts each, N transient failures to come,
 * and when the recipient's phone confirms a message WhatsApp took: delivered (ack 2) `deliverAfterMs`
 * after it, read (ack 3) `readAfterMs` after that; 0 never on its own (POST /simulator/acks does it).
 */
export type SendFaults = { sendLatencyMs: number; failSends: number; deliverAfterMs: number; readAfterMs: number };

/** A change of the outbox, handed to the phone's `record` before memory changes (the durable journal). */
export type OutboxEvent = { type: 'sent'; entry: OutboxEntry } | { type: 'ack'; id: string; ack: Ack } | { type: 'deleted'; id: string };

/**
 * What the simulated phone keeps across sessions of one connection: the outbox (on disk when the
 * network has a data directory, so it outlives the process like WhatsApp's servers), the numbers
 * marked absent, who wrote to it, and the send faults (per process).
 */
export type SimulatedPhone = {
  outbox: OutboxEntry[];
  absent: Set<string>;
  contacts: Map<string, Peer>;
  /** The messages simulated contacts sent it (id → sender's number), so only those can be edited or revoked. */
  received: Map<string, string>;
  faults: SendFaults;
  /** Persists an outbox change; rejects when it cannot, so nothing is recorded in memory either. */
  record: (event: OutboxEvent) => Promise<void>;
  /** Told of each message as it enters the outbox, in that same moment (the network's `watchOutbox`). */
  sent: (entry: OutboxEntry) => void;
};

/** The error of a fault-injected send: a plain Error, so senders see a retryable failure, not a final code. */
export const TRANSIENT_SEND_FAILURE = 'simulated transient send failure';

const BOOK_NAMES = ['Ana Lima', 'Bruno Costa', 'Carla Dias', 'Diego Rocha', 'Elisa Nunes'];

/** The address book a paired simulated phone comes with: five contacts, numbers derived from its own. */
export function simulatedAddressBook(paired: string): Peer[] {
  const tail = paired.slice(-6).padStart(6, '0');
  return BOOK_NAMES.map((name, i) => {
    const number = `55219${i}${tail}`.slice(0, 13);
    return { number, jid: `${number}@s.whatsapp.net`, name };
  });
}

export type SimulatorChannel = Channel & {
  /** Completes the pairing shown (a QR, or a code typed on the phone). */
  scan(number: string): Promise<void>;
  /** The phone number a pairing code was asked for, while one is pending. */
  pairingNumber(): string | undefined;
  /** After a `network` drop the connection comes back by itself after `forMs` (default: reconnectDelayMs). */
  drop(cause: 'network' | 'loggedOut' | 'replaced', forMs?: number): Promise<void>;
  receive(message: InboundMessage): Promise<void>;
  receiveCall(call: { id: string; from: Peer; video: boolean }): Promise<void>;
  /** The contact edits or revokes a message it sent; resolves after the platform handled it. */
  receiveChange(change: MessageChange): Promise<void>;
  advanceAck(messageId: string, ack: Ack): Promise<OutboxEntry>;
};

type Creds = { simulator: true; number: string; pairedAt: string };

export const digitsOf = (peer: Peer) => peer.number ?? (peer.jid ?? peer.lid ?? '').split('@')[0]!.split(':')[0]!.replace(/\D/g, '');
// Message ids: unique per process by a random prefix, then a counter (16 hex digits as WhatsApp's
// web ids have after 3EB0). Asking the system for random bytes per message cost more than the rest
// of a simulated send.
const idPrefix = randomBytes(3).toString('hex').toUpperCase();
let idCounter = 0;
export const newMessageId = () => `3EB0${idPrefix}${(++idCounter).toString(16).toUpperCase().padStart(10, '0')}`;
const b64 = (n: number) => randomBytes(n).toString('base64');
// WhatsApp's codes: 8 characters without look-alikes, shown as two groups of four.
const CODE_CHARS = '123456789ABCDEFGHJKLMNPQRSTVWXYZ';
const pairingCodeOf = () => {
  const chars = [...randomBytes(8)].map((b) => CODE_CHARS[b % CODE_CHARS.length]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4)}`;
};

export function createSimulatorChannel(
  connection: { id: number; companyId: number; provider: string },
  phone: SimulatedPhone,
  store: AuthStore,
  options: SimulatorOptions,
  onListenerError: (event: string, err: unknown) => void,
): SimulatorChannel {
  const events = createChannelEmitter(onListenerError);
  // The device's keys stay the same across QR refreshes; only the server's ref changes, as in WhatsApp.
  const deviceKeys = [b64(32), b64(32), b64(32)];
  let status: ConnectionStatus = 'DISCONNECTED';
  let number: string | undefined;
  let qrAttempt = 0;
  let timer: NodeJS.Timeout | undefined;
  let pairingNumber: string | undefined;
  // Bumped on every status change: a send that waited through one was lost with the old socket.
  let session = 0;
  // Receipts of the recipients' phones: due ones wait here while the connection is down, as
  // WhatsApp hands them over when it is back; a session that ends for good (disconnect, logout)
  // drops them with their timers.
  const receiptTimers = new Set<NodeJS.Timeout>();
  let heldReceipts: { id: string; ack: Ack }[] = [];

  const stopTimer = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
  const setStatus = async (next: ConnectionStatus, detail?: { reason?: string; number?: string; attempt?: number }) => {
    status = next;
    session += 1;
    if (next === 'DISCONNECTED') dropReceipts();
    await events.emit('status', next, detail);
    if (next === 'CONNECTED' && heldReceipts.length > 0) {
      const held = heldReceipts;
      heldReceipts = [];
      for (const r of held) receipt(r.id, r.ack);
    }
  };
  const dropReceipts = () => {
    for (const t of receiptTimers) clearTimeout(t);
    receiptTimers.clear();
    heldReceipts = [];
  };
  /** The recipient's phone confirms `id` as `ack` in `afterMs`; read follows delivery when the phone reads. */
  const scheduleReceipt = (id: string, ack: Ack, afterMs: number) => {
    if (afterMs <= 0) return;
    const t = setTimeout(() => {
      receiptTimers.delete(t);
      receipt(id, ack);
    }, afterMs);
    t.unref?.();
    receiptTimers.add(t);
  };
  const receipt = (id: string, ack: Ack) => {
    if (status !== 'CONNECTED') {
      heldReceipts.push({ id, ack });
      return;
    }
    channel.advanceAck(id, ack).then(
      () => {
        if (ack === 2) scheduleReceipt(id, 3, phone.faults.readAfterMs);
      },
      (err: unknown) => onListenerError('ack', err),
    );
  };
  const requireConnected = () => {
    if (status !== 'CONNECTED') throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  };

  const showQr = async () => {
    qrAttempt += 1;
    if (qrAttempt > options.qrMaxAttempts) {
      stopTimer();
      await setStatus('TIMEOUT', { reason: 'QR refs attempts ended' });
      return;
    }
    status = 'qrcode';
    await events.emit('qr', [`2@${b64(48)}`, ...deviceKeys].join(','), qrAttempt);
    timer = setTimeout(() => void showQr(), options.qrIntervalMs);
    timer.unref?.();
  };

  const channel: SimulatorChannel = {
    connectionId: connection.id,
    provider: connection.provider,
    status: () => status,
    on: (event, listener) => events.on(event, listener),

    async connect(opts) {
      if (status === 'CONNECTED' || status === 'OPENING' || status === 'qrcode' || status === 'PAIRING') return;
      stopTimer();
      pairingNumber = opts?.pairingCodeFor;
      const stored = await store.readCreds();
      const creds = stored ? (JSON.parse(stored) as Partial<Creds>) : undefined;
      if (creds?.simulator && creds.number) {
        number = creds.number;
        await setStatus('OPENING');
        await setStatus('CONNECTED', { number });
        return;
      }
      qrAttempt = 0;
      await showQr();
      if (pairingNumber && channel.status() === 'qrcode') await events.emit('pairingCode', pairingCodeOf());
    },

    async disconnect() {
      stopTimer();
      await setStatus('DISCONNECTED');
    },

    async logout(opts) {
      stopTimer();
      if (!opts?.keepStore) await store.wipe();
      number = undefined;
      await setStatus('DISCONNECTED', { reason: 'loggedOut' });
    },

    pairingNumber: () => (status === 'qrcode' ? pairingNumber : undefined),

    async scan(paired) {
      if (status !== 'qrcode') throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'This connection is not showing a QR code.');
      stopTimer();
      await setStatus('PAIRING');
      pairingNumber = undefined;
      number = paired;
      const creds: Creds = { simulator: true, number: paired, pairedAt: new Date().toISOString() };
      await store.writeCreds(JSON.stringify(creds));
      await setStatus('CONNECTED', { number: paired });
    },

    async drop(cause, forMs = options.reconnectDelayMs) {
      requireConnected();
      if (cause === 'loggedOut') return channel.logout();
      if (cause === 'replaced') {
        // Another device took the session over: WhatsApp does not reconnect, the pairing stays.
        await setStatus('DISCONNECTED', { reason: 'replaced' });
        return;
      }
      await setStatus('OPENING', { reason: 'network', attempt: 1 });
      timer = setTimeout(() => {
        timer = undefined;
        if (status === 'OPENING') void setStatus('CONNECTED', { number });
      }, forMs);
      timer.unref?.();
    },

    async receive(message) {
      requireConnected();
      await events.emit('message', message);
    },

    async receiveCall(call) {
      requireConnected();
      await events.emit('call', { ...call, timestamp: new Date().toISOString() });
    },

    async receiveChange(change) {
      requireConnected();
      await events.emit('change', change);
    },

    async advanceAck(messageId, ack) {
      const entry = phone.outbox.find((m) => m.id === messageId);
      if (!entry) throw new AppError('ERR_NOT_FOUND', `No sent message ${messageId} on this connection.`);
      // Acks only move forward: a late "delivered" after "read" changes nothing.
      if (ack > entry.ack) {
        await phone.record({ type: 'ack', id: entry.id, ack });
        // A higher ack recorded meanwhile stands.
        if (ack <= entry.ack) return entry;
        entry.ack = ack;
        await events.emit('ack', { id: entry.id, ack, to: { number: entry.to, jid: `${entry.to}@s.whatsapp.net` } });
      }
      return entry;
    },

    async send(request: SendRequest) {
      requireConnected();
      const to = digitsOf(request.to);
      if (!to || phone.absent.has(to)) throw new AppError('ERR_WAPP_INVALID_CONTACT');
      const latency = phone.faults.sendLatencyMs;
      if (latency > 0) {
        // Each send waits on its own timer (sends in flight overlap); WhatsApp accepts it at the end.
        const sentIn = session;
        await sleep(latency);
        // The socket dropped (or closed) meanwhile: the message never reached WhatsApp.
        if (sentIn !== session || status !== 'CONNECTED') throw new AppError('ERR_WAPP_NOT_INITIALIZED');
      }
      if (phone.faults.failSends > 0) {
        phone.faults.failSends -= 1;
        throw new Error(TRANSIENT_SEND_FAILURE);
      }
      const entry: OutboxEntry = { id: newMessageId(), to, kind: request.content.kind, body: '', ack: 1, timestamp: new Date().toISOString(), deleted: false };
      const c = request.content;
      if (c.kind === 'text') entry.body = c.body;
      if (c.kind === 'media') Object.assign(entry, { body: c.caption ?? '', mediaType: c.mediaType, fileName: c.fileName, mimeType: c.mimeType, size: c.data.length });
      if (c.kind === 'location') Object.assign(entry, { location: { latitude: c.latitude, longitude: c.longitude, description: c.description } });
      if (c.kind === 'vcard') Object.assign(entry, { body: c.displayName, vcard: c.vcard });
      if (request.quotedId) entry.quotedId = request.quotedId;
      await phone.record({ type: 'sent', entry });
      phone.outbox.push(entry);
      phone.sent(entry);
      scheduleReceipt(entry.id, 2, phone.faults.deliverAfterMs);
      return { id: entry.id, timestamp: entry.timestamp };
    },

    async checkNumbers(numbers) {
      requireConnected();
      return numbers.map((n) => {
        const digits = n.replace(/\D/g, '');
        const exists = digits.length >= 8 && !phone.absent.has(digits);
        return exists ? { number: n, exists, jid: `${digits}@s.whatsapp.net` } : { number: n, exists };
      });
    },

    async profilePictureUrl(peer) {
      requireConnected();
      const number = digitsOf(peer);
      return number && !phone.absent.has(number) ? simulatedProfilePicture(number) : undefined;
    },

    async markRead() {
      requireConnected();
    },

    async deleteMessage(_peer, messageId) {
      requireConnected();
      const entry = phone.outbox.find((m) => m.id === messageId);
      if (!entry || entry.deleted) throw new AppError('ERR_DELETE_WAPP_MSG');
      await phone.record({ type: 'deleted', id: entry.id });
      entry.deleted = true;
    },

    async listContacts() {
      if (!number) return [];
      // Its own book, then whoever wrote to it; numbers marked absent are not on WhatsApp.
      const byNumber = new Map(simulatedAddressBook(number).map((p) => [p.number!, p]));
      for (const [n, peer] of phone.contacts) byNumber.set(n, { ...byNumber.get(n), ...peer });
      return [...byNumber.values()].filter((p) => !phone.absent.has(p.number!));
    },
  };
  return channel;
}
