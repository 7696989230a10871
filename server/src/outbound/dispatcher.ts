// The outbox dispatcher (DESIGN §12): one lane per WhatsApp connection run here. A lane reads its
// connection's queued rows in order, claims each with a conditional update just before handing it
// to the network (`queued` → `sending`, this process named), sends outside any transaction, and
// records the outcome in a short transaction of its own: sent (the network's id, ack 1), failed for
// good (the catalogue code), or queued again (a transient failure after a backoff; the connection
// went down). Rules in README.md beside this file.
import { randomUUID } from 'node:crypto';
import { AppError } from '@zapdesk/sync';
import type { Ack, Channel } from '../channels/types.ts';
import type { AppDeps } from '../context.ts';
import { write, type Tx } from '../db/write.ts';
import { createPump, type Pump } from '../jobs/pump.ts';
import { requestFor } from './content.ts';
import { claimRows, readQueue, type OutboxRow, type Sendable } from './queries.ts';
import { groupBy } from '../inbound/resolve.ts';
import { createReceiptBook } from './receipts.ts';
import { recordAck, recordFailed, recordRequeued, recordSent, recordSentBatch, recoverUnconfirmed, type Taken } from './record.ts';

export type Outbox = {
  /** New rows on the connection were committed: its lane dispatches them (here, or on the instance running it). */
  wake(connectionId: number): void;
  /** Starts dispatching: rows a dead process left `sending` fail as unconfirmed, queued rows leave. */
  start(deps: AppDeps): void;
  /** Stops taking rows; waits for the sends under way to be recorded. */
  stop(): Promise<void>;
  /** Resolves once no lane has a send under way or a read pending (tests, benchmarks). */
  idle(): Promise<void>;
  /**
   * A receipt of the connection found no message with its id: it may have beaten the record of its
   * send, which then applies it (README.md "Receipts").
   */
  receiptUnmatched(companyId: number, connectionId: number, update: { id: string; ack: Ack }): void;
  /** The connection's channel when it is connected (markRead, delete, number checks: not sends). */
  channel(connectionId: number): Channel | undefined;
  /** Sends per connection at once (rows of one ticket always one at a time, in order). */
  readonly concurrency: number;
  /** The same while every row a lane has read ahead is a campaign's (see `bulkConcurrency`). */
  readonly bulkConcurrency: number;
};

export type OutboxOptions = {
  getChannel: (connectionId: number) => Channel | undefined;
  /** Sends in flight per connection; rows of one ticket still go one after the other. */
  concurrency?: number;
  /**
   * Sends in flight per connection while its queue holds only campaign sends (paced already when
   * the campaign queued them: nobody waits on one of them in particular). More at once means fewer,
   * larger claims; a crash leaves at most twice this many of them unconfirmed.
   */
  bulkConcurrency?: number;
  /** Attempts of a send that fails with a transient error, the first included. */
  attempts?: number;
  /** Wait before the 2nd attempt; doubles after each failure. */
  backoffMs?: number;
  /** How often every lane looks at its queue anyway (a wake from another instance may be lost). */
  sweepMs?: number;
};

/**
 * Rows a lane reads ahead, per send it may have in flight. Under a backlog a lane reads again each
 * time its buffer runs short or holds only rows of tickets with a send under way: more rows per read
 * cost more per read than they save in reads.
 */
const READ_AHEAD = 4;

/** Sends recorded in one write at most. */
const RECORD_BATCH = 100;

/** A send that failed this way is not retried: the row fails for good. */
const FINAL_CODES = new Set(['ERR_WAPP_INVALID_CONTACT', 'ERR_NO_CONTACT_FOUND']);

type Lane = {
  connectionId: number;
  companyId: number | undefined;
  running: number;
  /** Sends the network took whose outcome is being written: still `sending` in the database. */
  recording: number;
  /** Queued rows read ahead, oldest first (see dispatchLane). */
  buffer: OutboxRow[];
  /**
   * The queue may hold rows the buffer lacks: a commit queued some (a wake), a send was queued again,
   * the last read filled its page, or it left out a ticket that is free now. Otherwise a pass sends
   * from the buffer without reading: the read after each send found nothing (two empty reads per
   * assistant's answer in bench ai).
   */
  stale: boolean;
  /** The tickets the last read left out (a send of theirs was under way). */
  skipped: Set<number>;
  /** Tickets with a row under way: their later rows wait. */
  busy: Set<number>;
  /** The last read of the queue found only a campaign's sends (see the pump's `bulk`). */
  bulk: boolean;
  pump: Pump;
  recovered: boolean;
  timer: NodeJS.Timeout | undefined;
};

export function createOutbox(opts: OutboxOptions): Outbox {
  const concurrency = Math.max(1, opts.concurrency ?? 4);
  const bulkConcurrency = Math.max(concurrency, opts.bulkConcurrency ?? 8);
  const attempts = Math.max(1, opts.attempts ?? 3);
  const backoffMs = opts.backoffMs ?? 500;
  // Names this process's claims: a row left `sending` under another name was in flight when its process died.
  const instance = randomUUID();
  const lanes = new Map<number, Lane>();
  const settled = new Set<() => void>();
  let deps: AppDeps | undefined;
  let stopped = false;
  let sweeper: NodeJS.Timeout | undefined;
  const offs: (() => void)[] = [];
  const recordQueue: { companyId: number; taken: Taken; resolve: () => void; reject: (err: unknown) => void }[] = [];
  let recordFlushing = false;
  const receipts = createReceiptBook();

  const connected = (connectionId: number) => {
    const channel = opts.getChannel(connectionId);
    return channel && channel.status() === 'CONNECTED' ? channel : undefined;
  };

  const laneOf = (connectionId: number) => {
    const lane = lanes.get(connectionId);
    if (lane) return lane;
    const created: Lane = {
      connectionId,
      companyId: undefined,
      running: 0,
      recording: 0,
      buffer: [],
      stale: true,
      skipped: new Set(),
      busy: new Set(),
      bulk: false,
      recovered: false,
      timer: undefined,
      pump: createPump({
        pass: () => (deps && !stopped ? dispatchLane(deps, created) : Promise.resolve()),
        onError: (err) => report('dispatch', created, err),
        onSettled: checkIdle,
        // A lane whose last read found only campaign sends takes turns with the requests; one with
        // a conversation's reply ahead does not (the agent waits for it to leave).
        bulk: () => created.bulk,
      }),
    };
    lanes.set(connectionId, created);
    return created;
  };

  // At most `concurrency` sends on the wire (`bulkConcurrency` while the lane carries only a
  // campaign's), and as many more awaiting their record: a lane never has more than twice that many
  // rows `sending` in the database, which bounds what a crash leaves unconfirmed.
  const limitOf = (lane: Lane) => (lane.bulk ? bulkConcurrency : concurrency);
  const roomOf = (lane: Lane) => Math.min(limitOf(lane) - lane.running, 2 * limitOf(lane) - lane.running - lane.recording);
  const full = (lane: Lane) => roomOf(lane) <= 0;

  const isIdle = () => [...lanes.values()].every((l) => l.running === 0 && l.recording === 0 && !l.pump.busy);
  const checkIdle = () => {
    if (!isIdle()) return;
    for (const resolve of settled) resolve();
    settled.clear();
  };

  const report = (what: string, lane: Lane, err: unknown) =>
    deps?.log.error(`outbox ${what} failed`, { connectionId: lane.connectionId, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });

  function pump(lane: Lane, now = false) {
    if (deps && !stopped) lane.pump.wake(now);
  }

  /** New rows may be queued: the lane's next pass reads its queue. */
  function refresh(lane: Lane, now = false) {
    lane.stale = true;
    pump(lane, now);
  }

  /** One pass of a lane (when it runs: README.md "Fairness"). */
  async function dispatchLane(deps: AppDeps, lane: Lane) {
    const channel = connected(lane.connectionId);
    // Down: the rows wait; the lane is woken when the connection is CONNECTED again.
    if (!channel || stopped) return;
    lane.companyId ??= (await deps.db.selectFrom('whatsapps').select('whatsapps.companyId').where('whatsapps.id', '=', lane.connectionId).executeTakeFirst())?.companyId;
    if (lane.companyId === undefined) return;
    if (!lane.recovered) {
      await recoverUnconfirmed(deps, lane.companyId, lane.connectionId, instance);
      lane.recovered = true;
    }
    if (full(lane)) return;
    // The buffer saves a read per send under a backlog; it is read again when it runs short, or
    // when slots are free and nothing in it could go (new rows may have been committed since).
    let fresh = false;
    if (lane.buffer.length < limitOf(lane) && lane.stale) {
      lane.buffer = await readLaneQueue(deps, lane);
      fresh = true;
    }
    await dispatchBuffered(deps, lane, channel);
    if (!fresh && !full(lane) && !stopped && lane.stale) {
      lane.buffer = await readLaneQueue(deps, lane);
      await dispatchBuffered(deps, lane, channel);
    }
  }

  /** The oldest queued rows of the lane's connection with what they send, leaving out tickets with a row under way. */
  async function readLaneQueue(deps: AppDeps, lane: Lane): Promise<OutboxRow[]> {
    // What commits from here on queue makes it stale again (a wake); so does a full page.
    lane.stale = false;
    lane.skipped = new Set(lane.busy);
    const limit = READ_AHEAD * limitOf(lane);
    const rows = await readQueue(deps.db, { companyId: lane.companyId!, connectionId: lane.connectionId, skipTickets: [...lane.skipped], limit });
    if (rows.length === limit) lane.stale = true;
    lane.bulk = rows.length > 0 && rows.every((r) => isBulk(r.origin));
    return rows;
  }

  /**
   * Starts what the buffer allows: each ticket's oldest row, when nothing of that ticket is under
   * way and it is due, as many as the lane has room for, claimed together right before they go.
   */
  async function dispatchBuffered(deps: AppDeps, lane: Lane, channel: Channel) {
    const now = Date.now();
    const room = roomOf(lane);
    const seen = new Set<number>();
    const left: OutboxRow[] = [];
    const picked: OutboxRow[] = [];
    let nextDue = Infinity;
    for (const row of lane.buffer) {
      const first = !seen.has(row.ticketId);
      seen.add(row.ticketId);
      const due = row.notBefore ? Date.parse(row.notBefore) : 0;
      if (stopped || picked.length >= room || !first || lane.busy.has(row.ticketId) || due > now) {
        if (first && due > now) nextDue = Math.min(nextDue, due);
        left.push(row);
        continue;
      }
      picked.push(row);
    }
    lane.buffer = left;
    if (nextDue < Infinity) wakeAt(lane, nextDue - now);
    if (picked.length === 0) return;
    // Taken or removed meanwhile: it leaves the buffer either way.
    const claimed = await claimRows(deps.db, lane.companyId!, picked.map((r) => r.id), instance);
    // Claimed rows go even if a stop began meanwhile: stop() waits for them; left `sending` they would
    // fail as unconfirmed though never sent.
    for (const row of picked) if (claimed.has(row.id)) send(deps, lane, channel, row, claimed.get(row.id)!);
  }

  function send(deps: AppDeps, lane: Lane, channel: Channel, row: OutboxRow, sendable: Sendable | null) {
    lane.running++;
    lane.busy.add(row.ticketId);
    const companyId = lane.companyId!;
    const attempt = row.attempts + 1;
    // A row the network took frees its slot and its ticket at once (the ticket's next row may go
    // while this one is recorded); one queued again frees them only after its record (order).
    let freed = false;
    const free = () => {
      if (freed) return;
      freed = true;
      lane.running--;
      lane.busy.delete(row.ticketId);
      // Its later rows were left out of the last read.
      if (lane.skipped.has(row.ticketId)) lane.stale = true;
    };
    void (async () => {
      let request;
      try {
        request = await requestFor(deps.config.mediaDir, sendable);
      } catch (err) {
        await write(deps, (tx) => recordFailed(tx, companyId, row, codeOf(err)), { first: true });
        return;
      }
      let sent;
      try {
        sent = await channel.send(request);
      } catch (err) {
        await write(deps, (tx) => recordFailure(tx, companyId, lane, channel, row, attempt, err), { first: true });
        // A row queued again must go before its ticket's later rows: the buffer is read anew.
        lane.buffer = [];
        lane.stale = true;
        return;
      }
      free();
      lane.recording++;
      // The slot is free and replies may be waiting for it: on SQLite the next one leaves in this
      // turn (its claim is a statement on this thread). On PostgreSQL a claim is a round trip
      // anyway, and claiming per slot instead of per turn only multiplied the claims.
      pump(lane, deps.dialect === 'sqlite');
      try {
        await recordTaken(deps, companyId, { row, wid: sent.id });
      } finally {
        lane.recording--;
      }
    })()
      .catch((err: unknown) => report('record', lane, err))
      .finally(() => {
        free();
        pump(lane);
        checkIdle();
      });
  }

  /**
   * Sends the network took wait here for their record: those taken while a record is written go
   * together in the next one (one write, one statement per kind: record.ts recordSentBatch). If that
   * write fails, each is recorded on its own, so a bad row fails alone.
   */
  function recordTaken(deps: AppDeps, companyId: number, taken: Taken): Promise<void> {
    return new Promise((resolve, reject) => {
      recordQueue.push({ companyId, taken, resolve, reject });
      if (recordFlushing) return;
      recordFlushing = true;
      setImmediate(() => void flushTaken(deps));
    });
  }

  async function flushTaken(deps: AppDeps) {
    try {
      while (recordQueue.length > 0) {
        const batch = recordQueue.splice(0, RECORD_BATCH);
        try {
          await write(deps, async (tx) => {
            for (const [companyId, items] of groupBy(batch, (b) => b.companyId)) await recordSentBatch(tx, companyId, items.map((b) => b.taken));
          }, { first: true });
          applyKeptReceipts(deps, batch);
          for (const b of batch) b.resolve();
        } catch {
          for (const b of batch) {
            await write(deps, (tx) => recordSent(tx, b.companyId, b.taken.row, b.taken.wid), { first: true }).then(() => {
              applyKeptReceipts(deps, [b]);
              b.resolve();
            }, b.reject);
          }
        }
      }
    } finally {
      recordFlushing = false;
    }
  }

  /** Sends whose record committed: receipts that came before it are applied now (README.md "Receipts"). */
  function applyKeptReceipts(deps: AppDeps, recorded: { companyId: number; taken: Taken }[]) {
    for (const [connectionId, items] of groupBy(recorded, (b) => b.taken.row.whatsappId)) {
      const kept = receipts.recorded(connectionId, items.map((b) => b.taken.wid));
      if (kept.length > 0) applyLate(deps, items[0]!.companyId, connectionId, kept);
    }
  }

  function applyLate(deps: AppDeps, companyId: number, connectionId: number, updates: { id: string; ack: Ack }[]) {
    write(deps, async (tx) => {
      for (const update of updates) await recordAck(tx, companyId, connectionId, update);
    }).catch((err: unknown) => deps.log.warn('outbox: a receipt kept for its record failed', { connectionId, error: String(err) }));
  }

  /** A send the network refused: queued again (down, or a transient error with attempts left) or failed. */
  function recordFailure(tx: Tx, companyId: number, lane: Lane, channel: Channel, row: OutboxRow, attempt: number, err: unknown) {
    const code = err instanceof AppError ? err.code : undefined;
    if (code === 'ERR_WAPP_NOT_INITIALIZED' || connected(lane.connectionId) !== channel) return recordRequeued(tx, companyId, row, { countAttempt: false });
    if (code && FINAL_CODES.has(code)) return recordFailed(tx, companyId, row, code);
    if (attempt >= attempts) {
      tx.log.warn('outbox send failed', { connectionId: lane.connectionId, messageId: row.messageId, attempts: attempt, error: err instanceof Error ? err.message : String(err) });
      return recordFailed(tx, companyId, row, 'ERR_SENDING_WAPP_MSG');
    }
    const notBefore = new Date(Date.now() + backoffMs * 2 ** (attempt - 1)).toISOString();
    return recordRequeued(tx, companyId, row, { countAttempt: true, notBefore });
  }

  function wakeAt(lane: Lane, inMs: number) {
    if (lane.timer) clearTimeout(lane.timer);
    lane.timer = setTimeout(() => {
      lane.timer = undefined;
      pump(lane);
    }, Math.max(0, inMs));
    lane.timer.unref?.();
  }

  /**
   * Every connection with outbox rows that runs here: a wake from another instance may have been
   * lost, and a lane left only with rows a dead process was sending must still start, to fail them
   * as unconfirmed (the table holds live rows only, so this reads little).
   */
  async function sweep(deps: AppDeps) {
    // Crosses companies on purpose, like the cron jobs: one dispatcher serves every tenant's connections.
    const rows = await deps.db.selectFrom('outbox').select('outbox.whatsappId').groupBy('outbox.whatsappId').execute();
    for (const { whatsappId } of rows) if (connected(whatsappId)) refresh(laneOf(whatsappId));
  }

  return {
    concurrency,
    bulkConcurrency,
    wake(connectionId) {
      if (!deps || stopped) return;
      // On SQLite the rows just committed are claimed and sent in this turn (README.md "Fairness").
      if (connected(connectionId)) refresh(laneOf(connectionId), deps.dialect === 'sqlite');
      // The connection may run on another instance (PostgreSQL, DESIGN §11).
      else deps.realtime.outboxQueued(connectionId);
    },
    start(d) {
      deps = d;
      offs.push(
        d.sessions.onStatus(({ connectionId, status }) => {
          if (status !== 'CONNECTED') return;
          // The connection (re)starts here, maybe after running on another instance (its lease
          // moved): what another process left `sending` is looked at again.
          const lane = laneOf(connectionId);
          lane.recovered = false;
          refresh(lane);
        }),
      );
      offs.push(
        d.realtime.onOutboxQueued((connectionId) => {
          if (connected(connectionId)) refresh(laneOf(connectionId));
        }),
      );
      const everyMs = opts.sweepMs ?? 5_000;
      sweeper = setInterval(() => void sweep(d).catch((err: unknown) => d.log.warn('outbox sweep failed', { error: String(err) })), everyMs);
      sweeper.unref?.();
      void sweep(d).catch((err: unknown) => d.log.warn('outbox sweep failed', { error: String(err) }));
    },
    async stop() {
      stopped = true;
      if (sweeper) clearInterval(sweeper);
      for (const off of offs.splice(0)) off();
      for (const lane of lanes.values()) if (lane.timer) clearTimeout(lane.timer);
      await this.idle();
    },
    idle() {
      if (isIdle()) return Promise.resolve();
      return new Promise<void>((resolve) => settled.add(resolve));
    },
    receiptUnmatched(companyId, connectionId, update) {
      if (receipts.unmatched(connectionId, update.id, update.ack) === 'retry' && deps) applyLate(deps, companyId, connectionId, [update]);
    },
    channel: connected,
  };
}

/** Sends nobody waits on this moment: a campaign's messages and confirmation questions. */
const isBulk = (origin: string | null) => origin !== null && origin.startsWith('campaign');

function codeOf(err: unknown): string {
  return err instanceof AppError ? err.code : 'ERR_SENDING_WAPP_MSG';
}
