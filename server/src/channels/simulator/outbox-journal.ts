// The simulated phones' outboxes on disk. The simulator network stands for WhatsApp's servers,
// which outlive our process: what the platform sent before a crash (kill -9) must still be listed
// after the restart, with its ids and acks, so a test can tell "sent" from "lost".
//
// One append-only file, `<dataDir>/simulator/outbox.jsonl`, one JSON line per event:
//   {"c":7,"t":"sent","entry":{…OutboxEntry}}   {"c":7,"t":"ack","id":"3EB0…","ack":3}   {"c":7,"t":"deleted","id":"3EB0…"}
// Each event is written before memory changes and before its caller hears back, so whatever a
// caller was told was sent is on disk (in the OS's page cache: it survives the process, not a power
// cut; no fsync, to stay fast). The events of one turn of work (the sends an outbox claim starts
// together) go in one write.
// The file is only appended to, never rewritten; it is replayed once when the network is created.
// It stays open for appends from the first one on (one descriptor per network, for its lifetime):
// a write per batch of events rather than an open, a write and a close per event.
import { mkdirSync, openSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { OutboxEntry, OutboxEvent } from './channel.ts';

export type OutboxJournal = {
  /** The outboxes as they stood when the network was created, by connection id, oldest first. */
  readonly loaded: Map<number, OutboxEntry[]>;
  /** Resolves once the event is written (with the others appended in the same microtask run); rejects if it could not be. */
  append(connectionId: number, event: OutboxEvent): Promise<void>;
};

type Line = { c: number } & ({ t: 'sent'; entry: OutboxEntry } | { t: 'ack'; id: string; ack: OutboxEntry['ack'] } | { t: 'deleted'; id: string });

export function openOutboxJournal(dataDir: string): OutboxJournal {
  const dir = path.join(dataDir, 'simulator');
  const file = path.join(dir, 'outbox.jsonl');
  mkdirSync(dir, { recursive: true });
  const loaded = replay(file);
  let fd: number | undefined;
  let pending: { text: string; written: { resolve: () => void; reject: (err: unknown) => void }[] } | undefined;
  const flush = () => {
    const batch = pending!;
    pending = undefined;
    try {
      fd ??= openSync(file, 'a');
      writeSync(fd, batch.text);
    } catch (err) {
      for (const w of batch.written) w.reject(err);
      return;
    }
    for (const w of batch.written) w.resolve();
  };
  return {
    loaded,
    append(connectionId, event) {
      const line: Line = event.type === 'sent' ? { c: connectionId, t: 'sent', entry: event.entry } : event.type === 'ack' ? { c: connectionId, t: 'ack', id: event.id, ack: event.ack } : { c: connectionId, t: 'deleted', id: event.id };
      if (!pending) {
        pending = { text: '', written: [] };
        queueMicrotask(flush);
      }
      pending.text += `${JSON.stringify(line)}\n`;
      return new Promise<void>((resolve, reject) => pending!.written.push({ resolve, reject }));
    },
  };
}

function replay(file: string): Map<number, OutboxEntry[]> {
  const outboxes = new Map<number, OutboxEntry[]>();
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return outboxes;
    throw err;
  }
  // A kill in the middle of an append leaves a torn last line: cut it off, or the next append
  // would be glued to it and both lost.
  const end = bytes.lastIndexOf(0x0a) + 1;
  if (end < bytes.length) truncateSync(file, end);
  const byId = new Map<string, OutboxEntry>();
  for (const raw of bytes.subarray(0, end).toString('utf8').split('\n')) {
    if (!raw) continue;
    let line: Line;
    try {
      line = JSON.parse(raw) as Line;
    } catch {
      continue; // a damaged line is skipped: the rest of the history still counts
    }
    if (line.t === 'sent') {
      let outbox = outboxes.get(line.c);
      if (!outbox) outboxes.set(line.c, (outbox = []));
      outbox.push(line.entry);
      byId.set(`${line.c}/${line.entry.id}`, line.entry);
      continue;
    }
    const entry = byId.get(`${line.c}/${line.id}`);
    if (!entry) continue;
    if (line.t === 'ack') entry.ack = Math.max(entry.ack, line.ack) as OutboxEntry['ack'];
    else entry.deleted = true;
  }
  return outboxes;
}
