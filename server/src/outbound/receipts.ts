// Receipts that arrive before their send is recorded (README.md "Receipts"). The network may
// confirm a message (delivered, even read) before the outbox's record of the send gave the message
// row its network id; the receipt's update then finds no row. The book keeps such receipts for a
// while and hands them over when the send's record commits. It also remembers the ids recorded
// lately: a receipt whose update missed a record that committed meanwhile (PostgreSQL runs the two
// transactions at once) is applied again instead of kept for a record that already happened.
// Both sides ask after their own commit, on this one thread: whichever comes second sees the other.
import type { Ack } from '../channels/types.ts';

export type ReceiptBook = {
  /** A receipt found no message with its id: `retry` if the id was recorded meanwhile, else kept for its record. */
  unmatched(connectionId: number, wid: string, ack: Ack): 'retry' | 'held';
  /** These sends' records committed: the receipts kept for them, each once. */
  recorded(connectionId: number, wids: readonly string[]): { id: string; ack: Ack }[];
};

export type ReceiptBookOptions = {
  /** How long a kept receipt waits for its record, and how long a recorded id is remembered. */
  keepMs?: number;
  /** Entries of each kind beyond which the oldest go: receipts of messages that are not ours must not pile up. */
  max?: number;
  now?: () => number;
};

export function createReceiptBook({ keepMs = 60_000, max = 20_000, now = Date.now }: ReceiptBookOptions = {}): ReceiptBook {
  // Oldest first (a Map keeps insertion order), so pruning looks only at the front.
  const held = new Map<string, { ack: Ack; at: number }>();
  const recent = new Map<string, number>();
  const keyOf = (connectionId: number, wid: string) => `${connectionId}:${wid}`;

  const prune = <V>(map: Map<string, V>, atOf: (v: V) => number, t: number) => {
    for (const [key, value] of map) {
      if (map.size <= max && t - atOf(value) < keepMs) break;
      map.delete(key);
    }
  };

  return {
    unmatched(connectionId, wid, ack) {
      const t = now();
      prune(recent, (at) => at, t);
      const key = keyOf(connectionId, wid);
      if (recent.has(key)) return 'retry';
      prune(held, (h) => h.at, t);
      const kept = held.get(key);
      if (kept) kept.ack = Math.max(kept.ack, ack) as Ack;
      else held.set(key, { ack, at: t });
      return 'held';
    },
    recorded(connectionId, wids) {
      const t = now();
      prune(recent, (at) => at, t);
      prune(held, (h) => h.at, t);
      const found: { id: string; ack: Ack }[] = [];
      for (const wid of wids) {
        const key = keyOf(connectionId, wid);
        recent.set(key, t);
        const kept = held.get(key);
        if (!kept) continue;
        held.delete(key);
        found.push({ id: wid, ack: kept.ack });
      }
      return found;
    },
  };
}
