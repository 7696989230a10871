// The simulator's controls as one network for every server instance (DESIGN §11): a control acting
// on a connection runs where its session runs (the lease holder, holder.ts), so a demo or a test
// of N instances drives one WhatsApp. A contact's message sent while the connection has no holder
// (its instance died, the take-over is under way) is held, as WhatsApp holds it, and arrives once a
// holder runs the connection; its id is chosen before it travels, so a repeat after a holder died
// mid-call is stored once (the pipeline is idempotent by connection and id). The phone's settings
// (faults, numbers marked absent) are told to every instance, so they hold wherever the session
// moves; the outbox lists what the holder's phone knows (each instance journals in its DATA_DIR).
import type { DropCause, SimulatorMessageInput } from '@zapdesk/sync';
import type { Routing, Target } from '../holder.ts';
import type { Ack, ConnectionStatus } from '../types.ts';
import { newMessageId, type OutboxEntry, type SendFaults } from './channel.ts';
import type { SimulatorNetwork } from './network.ts';

/** How long a contact's message waits for a connection without a holder: past a take-over (lease TTL + heartbeat + start). */
const HELD_MS = 60_000;

export type SimulatorControls = {
  scan(t: Target, number?: string): Promise<{ status: ConnectionStatus | undefined }>;
  drop(t: Target, cause: DropCause, forMs?: number): Promise<{ status: ConnectionStatus | undefined }>;
  deliver(t: Target, input: Omit<SimulatorMessageInput, 'connectionId'>): Promise<{ id: string }>;
  /** Several messages at once, answered when every one is stored; the ids in the order given. */
  deliverBurst(t: Target, inputs: Omit<SimulatorMessageInput, 'connectionId'>[]): Promise<{ ids: string[] }>;
  change(t: Target, messageId: string, body?: string): Promise<{ id: string; kind: 'edit' | 'revoke' }>;
  ack(t: Target, messageId: string, ack: Ack): Promise<OutboxEntry>;
  outbox(t: Target, to?: string): Promise<OutboxEntry[]>;
  setFaults(t: Target, changes: Partial<SendFaults>): Promise<SendFaults>;
  setNumberExists(t: Target, number: string, exists: boolean): Promise<void>;
};

export function createSimulatorControls(
  network: SimulatorNetwork,
  routing: Routing,
  session: { flush(connectionId: number): Promise<void>; status(connectionId: number): ConnectionStatus | undefined },
): SimulatorControls {
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  const here = {
    scan: async (connectionId: number, number?: string) => {
      await network.scan(connectionId, number);
      await session.flush(connectionId);
      return { status: session.status(connectionId) };
    },
    drop: async (connectionId: number, cause: DropCause, forMs?: number) => {
      await network.drop(connectionId, cause, forMs);
      await session.flush(connectionId);
      return { status: session.status(connectionId) };
    },
  };
  // A burst's messages arrive together: the pipeline stores them in the same batches.
  const deliverHere = async (connectionId: number, inputs: Omit<SimulatorMessageInput, 'connectionId'>[]) => ({
    ids: (await Promise.all(inputs.map((input) => network.deliver(connectionId, input)))).map((r) => r.id),
  });
  routing.register({
    'sim.scan': (a) => here.scan(a.connectionId, str(a.number)),
    'sim.drop': (a) => here.drop(a.connectionId, a.cause as DropCause, num(a.forMs)),
    'sim.deliver': (a) => network.deliver(a.connectionId, a.input as Omit<SimulatorMessageInput, 'connectionId'>),
    'sim.burst': (a) => deliverHere(a.connectionId, a.inputs as Omit<SimulatorMessageInput, 'connectionId'>[]),
    'sim.change': (a) => network.change(a.connectionId, String(a.messageId), str(a.body)),
    'sim.ack': (a) => network.ack(a.connectionId, String(a.messageId), a.ack as Ack),
    'sim.outbox': async (a) => network.outbox(a.connectionId, str(a.to)),
    // Told to every instance (no answer): the phone's settings follow the session wherever it moves.
    'sim.faults': async (a) => network.setFaults(a.connectionId, a.changes as Partial<SendFaults>),
    'sim.number': async (a) => network.setNumberExists(a.connectionId, String(a.number), a.exists === true),
  });

  return {
    scan: (t, number) => routing.onHolder(t, 'sim.scan', { number }, () => here.scan(t.connectionId, number)),
    drop: (t, cause, forMs) => routing.onHolder(t, 'sim.drop', { cause, forMs }, () => here.drop(t.connectionId, cause, forMs)),
    deliver(t, input) {
      const held = { ...input, id: input.id ?? newMessageId() };
      return routing.onHolder(t, 'sim.deliver', { input: held }, () => network.deliver(t.connectionId, held), { timeoutMs: 30_000, waitMs: HELD_MS });
    },
    deliverBurst(t, inputs) {
      const held = inputs.map((input) => ({ ...input, id: input.id ?? newMessageId() }));
      return routing.onHolder(t, 'sim.burst', { inputs: held }, () => deliverHere(t.connectionId, held), { timeoutMs: 30_000, waitMs: HELD_MS });
    },
    change: (t, messageId, body) => routing.onHolder(t, 'sim.change', { messageId, body }, () => network.change(t.connectionId, messageId, body), { waitMs: HELD_MS }),
    ack: (t, messageId, ack) => routing.onHolder(t, 'sim.ack', { messageId, ack }, () => network.ack(t.connectionId, messageId, ack)),
    outbox: (t, to) => routing.onHolder(t, 'sim.outbox', { to }, async () => network.outbox(t.connectionId, to)),
    async setFaults(t, changes) {
      const faults = network.setFaults(t.connectionId, changes);
      await routing.broadcast('sim.faults', { ...t, changes });
      return faults;
    },
    async setNumberExists(t, number, exists) {
      network.setNumberExists(t.connectionId, number, exists);
      await routing.broadcast('sim.number', { ...t, number, exists });
    },
  };
}
