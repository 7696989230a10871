// The simulated WhatsApp network of one server process: the phones of the simulator connections
// (outbox, numbers marked absent, send faults) and their live channels. The session manager owns one
// instance; the HTTP controls of modules/simulator drive it. Given a data directory, the outboxes are
// journaled there and loaded back, as WhatsApp's servers outlive our process (outbox-journal.ts).
import { createHash } from 'node:crypto';
import { AppError, type DropCause, type SimulatorMessageInput } from '@zapdesk/sync';
import type { AuthStore } from '../auth-store.ts';
import type { Ack, InboundMessage, MessageChange } from '../types.ts';
import {
  createSimulatorChannel,
  newMessageId,
  type OutboxEntry,
  type SendFaults,
  type SimulatedPhone,
  type SimulatorChannel,
  type SimulatorOptions,
} from './channel.ts';
import { generateMedia } from './media.ts';
import { openOutboxJournal } from './outbox-journal.ts';

export type SimulatorNetwork = {
  readonly options: SimulatorOptions;
  createChannel(
    connection: { id: number; companyId: number; provider: string },
    store: AuthStore,
    onListenerError: (event: string, err: unknown) => void,
  ): SimulatorChannel;
  scan(connectionId: number, number?: string): Promise<void>;
  /** A simulated contact's message (or missed call) arrives; resolves after the platform handled it. */
  deliver(connectionId: number, input: Omit<SimulatorMessageInput, 'connectionId'>): Promise<{ id: string }>;
  /** The contact edits (`body`) or deletes for everyone (`body` undefined) a message it sent; resolves after the platform handled it. */
  change(connectionId: number, messageId: string, body?: string): Promise<{ id: string; kind: 'edit' | 'revoke' }>;
  outbox(connectionId: number, to?: string): OutboxEntry[];
  /**
   * Calls `listener` with each message the connection sends, as it enters the outbox (in the send
   * itself: a watcher learns of it with no delay of its own; one that throws fails nothing);
   * returns the unsubscribe.
   */
  watchOutbox(connectionId: number, listener: (entry: OutboxEntry) => void): () => void;
  ack(connectionId: number, messageId: string, ack: Ack): Promise<OutboxEntry>;
  /** `forMs`: after a network drop, the time until it comes back (default `options.reconnectDelayMs`). */
  drop(connectionId: number, cause: DropCause, forMs?: number): Promise<void>;
  /** Changes the phone's send faults (omitted fields keep their value) and answers them. No session needed. */
  setFaults(connectionId: number, changes: Partial<SendFaults>): SendFaults;
  setNumberExists(connectionId: number, number: string, exists: boolean): void;
};

export const DEFAULT_SIMULATOR_OPTIONS: SimulatorOptions = { qrIntervalMs: 20_000, qrMaxAttempts: 5, reconnectDelayMs: 1_000, deliverAfterMs: 0, readAfterMs: 0 };

/** The number a scan pairs when none is given: stable per connection, Brazilian mobile format. */
export const defaultPairedNumber = (connectionId: number) => `55119${String(connectionId % 1e8).padStart(8, '0')}`;

/** A stable fake LID per number, so the pipeline stores both identities as with real WhatsApp. */
const lidOf = (number: string) => `${BigInt(`0x${createHash('sha256').update(number).digest('hex').slice(0, 12)}`)}@lid`;

/**
 * `storage.dataDir`: journal the outboxes in `<dataDir>/simulator/outbox.jsonl` and load them back
 * (the server passes its DATA_DIR); without it everything stays in memory.
 */
export function createSimulatorNetwork(overrides: Partial<SimulatorOptions> = {}, storage: { dataDir?: string } = {}): SimulatorNetwork {
  const options: SimulatorOptions = { ...DEFAULT_SIMULATOR_OPTIONS, ...overrides };
  const journal = storage.dataDir ? openOutboxJournal(storage.dataDir) : undefined;
  const phones = new Map<number, SimulatedPhone>();
  const channels = new Map<number, SimulatorChannel>();
  const watchers = new Map<number, Set<(entry: OutboxEntry) => void>>();

  const phoneOf = (connectionId: number) => {
    let phone = phones.get(connectionId);
    if (!phone) {
      phone = {
        outbox: journal?.loaded.get(connectionId) ?? [],
        absent: new Set(),
        contacts: new Map(),
        received: new Map(),
        faults: { sendLatencyMs: 0, failSends: 0, deliverAfterMs: options.deliverAfterMs, readAfterMs: options.readAfterMs },
        record: journal ? (event) => journal.append(connectionId, event) : () => Promise.resolve(),
        sent: (entry) =>
          watchers.get(connectionId)?.forEach((listener) => {
            try {
              listener(entry);
            } catch {
              // The message is sent whatever a watcher does with it.
            }
          }),
      };
      phones.set(connectionId, phone);
    }
    return phone;
  };
  const channelOf = (connectionId: number) => {
    const channel = channels.get(connectionId);
    if (!channel) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The session of this connection is not started: POST /whatsappsession/{id} first.');
    return channel;
  };

  return {
    options,
    createChannel(connection, store, onListenerError) {
      const channel = createSimulatorChannel(connection, phoneOf(connection.id), store, options, onListenerError);
      channels.set(connection.id, channel);
      return channel;
    },
    scan: (connectionId, number) => channelOf(connectionId).scan(number ?? channelOf(connectionId).pairingNumber() ?? defaultPairedNumber(connectionId)),
    async deliver(connectionId, input) {
      const channel = channelOf(connectionId);
      const id = input.id ?? newMessageId();
      const from = { number: input.from, jid: `${input.from}@s.whatsapp.net`, lid: lidOf(input.from), ...(input.name ? { name: input.name } : {}) };
      phoneOf(connectionId).contacts.set(input.from, from);
      phoneOf(connectionId).received.set(id, input.from);
      if (input.mediaType === 'call_log') {
        await channel.receiveCall({ id, from, video: /video/i.test(input.body ?? '') });
        return { id };
      }
      await channel.receive(buildInbound(id, from, input));
      return { id };
    },
    async change(connectionId, messageId, body) {
      const channel = channelOf(connectionId);
      // WhatsApp lets only the sender edit or revoke: a message no simulated contact sent cannot change.
      if (!phoneOf(connectionId).received.has(messageId)) throw new AppError('ERR_NOT_FOUND', `No message ${messageId} was received on this connection.`);
      const timestamp = new Date().toISOString();
      const change: MessageChange = body === undefined ? { id: messageId, timestamp, kind: 'revoke' } : { id: messageId, timestamp, kind: 'edit', body };
      await channel.receiveChange(change);
      return { id: messageId, kind: change.kind };
    },
    outbox: (connectionId, to) => phoneOf(connectionId).outbox.filter((m) => to === undefined || m.to === to),
    watchOutbox(connectionId, listener) {
      const set = watchers.get(connectionId) ?? new Set();
      watchers.set(connectionId, set.add(listener));
      return () => void set.delete(listener);
    },
    ack: (connectionId, messageId, ack) => channelOf(connectionId).advanceAck(messageId, ack),
    drop: (connectionId, cause, forMs) => channelOf(connectionId).drop(cause, forMs),
    setFaults(connectionId, changes) {
      const faults = phoneOf(connectionId).faults;
      if (changes.sendLatencyMs !== undefined) faults.sendLatencyMs = changes.sendLatencyMs;
      if (changes.failSends !== undefined) faults.failSends = changes.failSends;
      if (changes.deliverAfterMs !== undefined) faults.deliverAfterMs = changes.deliverAfterMs;
      if (changes.readAfterMs !== undefined) faults.readAfterMs = changes.readAfterMs;
      return { ...faults };
    },
    setNumberExists(connectionId, number, exists) {
      const absent = phoneOf(connectionId).absent;
      if (exists) absent.delete(number);
      else absent.add(number);
    },
  };
}

function buildInbound(id: string, from: InboundMessage['from'], input: Omit<SimulatorMessageInput, 'connectionId'>): InboundMessage {
  const base: InboundMessage = { id, from, fromMe: false, timestamp: new Date().toISOString(), body: input.body ?? '' };
  if (input.quotedId) base.quotedId = input.quotedId;
  switch (input.mediaType) {
    case undefined:
    case 'text':
      return base;
    case 'image':
    case 'audio':
    case 'video':
    case 'document':
      return { ...base, mediaType: input.mediaType, media: generateMedia(input.mediaType, input.fileName) };
    case 'location': {
      // body "lat,lng[,description]" places the pin; otherwise São Paulo's Praça da Sé.
      const m = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*(?:,(.*))?$/.exec(input.body ?? '');
      const location = m
        ? { latitude: Number(m[1]), longitude: Number(m[2]), ...(m[3]?.trim() ? { description: m[3].trim() } : {}) }
        : { latitude: -23.5503, longitude: -46.6339, description: input.body || 'Praça da Sé, São Paulo' };
      return { ...base, body: location.description ?? '', mediaType: 'location', location };
    }
    case 'vcard': {
      const vcard = input.body?.startsWith('BEGIN:VCARD') ? input.body : buildVcard(input.body || 'Contato', '5511988887777');
      return { ...base, body: /FN:(.*)/.exec(vcard)?.[1]?.trim() ?? '', mediaType: 'vcard', vcard };
    }
    case 'call_log':
      return { ...base, mediaType: 'call_log' };
  }
}

function buildVcard(name: string, number: string): string {
  return ['BEGIN:VCARD', 'VERSION:3.0', `N:;${name};;;`, `FN:${name}`, `TEL;type=CELL;type=VOICE;waid=${number}:+${number}`, 'END:VCARD'].join('\n');
}
