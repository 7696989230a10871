// The simulated network on its own (no app, no database): its outbox journal in a data directory
// is what a restarted server reads back, and a network without one writes nothing.
import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { AuthStore } from '../auth-store.ts';
import { createSimulatorNetwork } from './network.ts';

/** Credentials of a phone paired earlier: connect() goes straight to CONNECTED. */
const pairedStore: AuthStore = {
  readCreds: async () => JSON.stringify({ simulator: true, number: '5511900001111', pairedAt: '2025-01-01T00:00:00.000Z' }),
  writeCreds: async () => undefined,
  readKeys: async () => new Map(),
  listKeys: async () => new Map(),
  writeKeys: async () => undefined,
  wipe: async () => undefined,
};

async function connectedChannel(dataDir: string | undefined, connectionId = 7) {
  const network = createSimulatorNetwork({}, dataDir ? { dataDir } : {});
  const channel = network.createChannel({ id: connectionId, companyId: 1, provider: 'simulator' }, pairedStore, () => undefined);
  await channel.connect();
  return { network, channel };
}
const text = (body: string, number = '5511977776666') => ({ to: { number }, content: { kind: 'text' as const, body } });
const journalOf = (dataDir: string) => path.join(dataDir, 'simulator', 'outbox.jsonl');

describe('the simulated network outbox journal', () => {
  it('a second network on the same data directory sees the same outboxes, acks and deletions', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'zapdesk-sim-'));
    const { network, channel } = await connectedChannel(dataDir);
    const other = await connectedChannel(dataDir, 8);
    const a = await channel.send(text('a'));
    await other.channel.send(text('elsewhere'));
    const b = await channel.send({ ...text('b', '5511955554444'), quotedId: a.id });
    const c = await channel.send(text('c'));
    await network.ack(7, a.id, 2);
    await network.ack(7, a.id, 4);
    await network.ack(7, a.id, 3); // backwards: ignored, and not journaled
    await channel.deleteMessage({ number: '5511977776666' }, c.id);

    const restarted = createSimulatorNetwork({}, { dataDir });
    expect(restarted.outbox(7)).toEqual(network.outbox(7));
    expect(restarted.outbox(7).map((m) => [m.id, m.body, m.ack, m.deleted])).toEqual([
      [a.id, 'a', 4, false],
      [b.id, 'b', 1, false],
      [c.id, 'c', 1, true],
    ]);
    expect(restarted.outbox(7, '5511955554444')).toEqual([expect.objectContaining({ id: b.id, quotedId: a.id })]);
    expect(restarted.outbox(8).map((m) => m.body)).toEqual(['elsewhere']);
    // One line per event, appended: 4 sends, 2 forward acks, 1 deletion.
    expect(readFileSync(journalOf(dataDir), 'utf8').trimEnd().split('\n')).toHaveLength(7);

    // The restarted network's phone keeps appending after what it loaded, and acks loaded entries.
    const again = restarted.createChannel({ id: 7, companyId: 1, provider: 'simulator' }, pairedStore, () => undefined);
    await again.connect();
    const d = await again.send(text('d'));
    await restarted.ack(7, b.id, 3);
    expect(createSimulatorNetwork({}, { dataDir }).outbox(7).map((m) => [m.id, m.ack])).toEqual([
      [a.id, 4],
      [b.id, 3],
      [c.id, 1],
      [d.id, 1],
    ]);
  });

  it('a line torn by a kill is cut off at load, so the next append starts clean', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'zapdesk-sim-'));
    const { channel } = await connectedChannel(dataDir);
    const kept = await channel.send(text('kept'));
    appendFileSync(journalOf(dataDir), '{"c":7,"t":"sent","entry":{"id":"3EB0TORN');
    const second = await connectedChannel(dataDir);
    expect(second.network.outbox(7).map((m) => m.id)).toEqual([kept.id]);
    const next = await second.channel.send(text('next'));
    expect(createSimulatorNetwork({}, { dataDir }).outbox(7).map((m) => m.id)).toEqual([kept.id, next.id]);
  });

  it('sends started together are written together, each on disk before its sender hears back, in order', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'zapdesk-sim-'));
    const { network, channel } = await connectedChannel(dataDir);
    const onDisk = () => readFileSync(journalOf(dataDir), 'utf8').trimEnd().split('\n').map((l) => (JSON.parse(l) as { entry: { body: string } }).entry.body);
    const heard: string[][] = [];
    const bodies = ['one', 'two', 'three', 'four', 'five'];
    await Promise.all(bodies.map((b) => channel.send(text(b)).then(() => heard.push(onDisk()))));
    expect(onDisk()).toEqual(bodies);
    // Every sender heard back with all five already written: one write for the five.
    expect(heard).toEqual(bodies.map(() => bodies));
    expect(network.outbox(7).map((m) => m.body)).toEqual(bodies);
  });

  it('sends in flight under latency are journaled in the order WhatsApp accepted them; failed ones not at all', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'zapdesk-sim-'));
    const { network, channel } = await connectedChannel(dataDir);
    network.setFaults(7, { sendLatencyMs: 100, failSends: 1 });
    const results = await Promise.allSettled(['x', 'y', 'z'].map((body) => channel.send(text(body))));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(createSimulatorNetwork({}, { dataDir }).outbox(7).map((m) => m.body)).toEqual(['y', 'z']);
    // Faults are the process's, not the journal's.
    const restarted = createSimulatorNetwork({}, { dataDir });
    expect(restarted.setFaults(7, {})).toEqual({ sendLatencyMs: 0, failSends: 0, deliverAfterMs: 0, readAfterMs: 0 });
  });

  it("the recipients' phones confirm each message on their own: delivered, then read, journaled like any ack", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'zapdesk-sim-'));
    const { network, channel } = await connectedChannel(dataDir);
    const acks: [string, number][] = [];
    channel.on('ack', (a) => void acks.push([a.id, a.ack]));
    const before = await channel.send(text('sent before'));
    network.setFaults(7, { deliverAfterMs: 40, readAfterMs: 400 });
    const sent = await channel.send(text('hello'));
    await vi.waitFor(() => expect(acks).toHaveLength(1));
    expect(acks).toEqual([[sent.id, 2]]);
    await vi.waitFor(() => expect(acks).toEqual([[sent.id, 2], [sent.id, 3]]));
    // A message sent before the phone confirmed anything stays as it was.
    expect(createSimulatorNetwork({}, { dataDir }).outbox(7).map((m) => [m.id, m.ack])).toEqual([[before.id, 1], [sent.id, 3]]);
  });

  it('receipts due while the connection is down arrive when it is back; a disconnect drops them', async () => {
    const { network, channel } = await connectedChannel(undefined);
    const acks: number[] = [];
    channel.on('ack', (a) => void acks.push(a.ack));
    network.setFaults(7, { deliverAfterMs: 20 });
    await channel.send(text('during a drop'));
    await channel.drop('network', 150);
    await new Promise((r) => setTimeout(r, 60));
    expect(acks).toEqual([]);
    await vi.waitFor(() => expect(channel.status()).toBe('CONNECTED'));
    await vi.waitFor(() => expect(acks).toEqual([2]));

    await channel.send(text('before a disconnect'));
    await channel.disconnect();
    await channel.connect();
    await new Promise((r) => setTimeout(r, 60));
    expect(acks).toEqual([2]);
    expect(network.outbox(7).map((m) => m.ack)).toEqual([2, 1]);
  });

  it('without a data directory everything stays in memory', async () => {
    const { network, channel } = await connectedChannel(undefined);
    await channel.send(text('only here'));
    expect(network.outbox(7)).toHaveLength(1);
    expect(createSimulatorNetwork().outbox(7)).toEqual([]);
  });
});

describe('watching a connection’s outbox', () => {
  it('a watcher hears each message as it enters the outbox, before the send returns; a throwing one fails nothing', async () => {
    const { network, channel } = await connectedChannel(undefined);
    const other = await connectedChannel(undefined, 8);
    const heard: string[] = [];
    let returned = 0;
    const stop = network.watchOutbox(7, (m) => {
      // The send has not returned yet, and the message is already in the outbox.
      heard.push(`${m.body}:${returned}:${network.outbox(7).some((e) => e.id === m.id)}`);
    });
    network.watchOutbox(7, () => {
      throw new Error('a broken watcher');
    });
    const a = await channel.send(text('a'));
    returned++;
    await channel.send(text('b'));
    returned++;
    await other.channel.send(text('elsewhere'));
    expect(heard).toEqual(['a:0:true', 'b:1:true']);
    expect(network.outbox(7).map((m) => m.id)[0]).toBe(a.id);
    stop();
    await channel.send(text('c'));
    expect(heard).toHaveLength(2);
    expect(network.outbox(7).map((m) => m.body)).toEqual(['a', 'b', 'c']);
  });
});
