// One send queue per connection, shared by agents, the bot, campaigns and schedules: sends on a
// connection go out one at a time in the order they were asked for (WhatsApp bans bursts and
// reorders nothing for us), a transient failure is retried with backoff, and every failure leaves
// as one of three catalogue codes.
import { AppError } from '@zapdesk/sync';
import type { Channel, SendRequest, SendResult } from '../channels/types.ts';

export type ChannelLookup = (connectionId: number) => Channel | undefined;

export type SendQueue = {
  /** Sends on the connection's queue; rejects with ERR_WAPP_NOT_INITIALIZED, ERR_WAPP_INVALID_CONTACT or ERR_SENDING_WAPP_MSG. */
  send(connectionId: number, request: SendRequest): Promise<SendResult>;
  /** The connection's channel when it is connected, for calls that are not sends (markRead, delete). */
  channel(connectionId: number): Channel | undefined;
  /** Sends waiting or running on a connection (for tests and the benchmark). */
  pending(connectionId: number): number;
  /** Resolves when every queue is empty. */
  idle(): Promise<void>;
};

export type SendQueueOptions = {
  getChannel: ChannelLookup;
  /** Attempts per send, the first included. */
  attempts?: number;
  /** Backoff before the 2nd attempt; doubles after each failure. */
  backoffMs?: number;
};

const FINAL_CODES = new Set(['ERR_WAPP_INVALID_CONTACT', 'ERR_WAPP_NOT_INITIALIZED']);

export function createSendQueue(opts: SendQueueOptions): SendQueue {
  const attempts = opts.attempts ?? 3;
  const backoffMs = opts.backoffMs ?? 500;
  const tails = new Map<number, Promise<unknown>>();
  const counts = new Map<number, number>();

  const connected = (connectionId: number) => {
    const channel = opts.getChannel(connectionId);
    return channel && channel.status() === 'CONNECTED' ? channel : undefined;
  };

  async function sendWithRetry(connectionId: number, request: SendRequest): Promise<SendResult> {
    let delay = backoffMs;
    for (let attempt = 1; ; attempt++) {
      const channel = connected(connectionId);
      if (!channel) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
      try {
        return await channel.send(request);
      } catch (err) {
        if (err instanceof AppError && FINAL_CODES.has(err.code)) throw err;
        if (attempt >= attempts) {
          throw new AppError('ERR_SENDING_WAPP_MSG', undefined, { details: { cause: err instanceof Error ? err.message : String(err) } });
        }
        await new Promise((r) => setTimeout(r, delay));
        delay *= 2;
      }
    }
  }

  return {
    send(connectionId, request) {
      counts.set(connectionId, (counts.get(connectionId) ?? 0) + 1);
      const previous = tails.get(connectionId) ?? Promise.resolve();
      const job = previous.then(() => sendWithRetry(connectionId, request));
      // The chain goes on after a failure; the caller sees the failure through `job`.
      const tail = job.then(
        () => undefined,
        () => undefined,
      );
      tails.set(connectionId, tail);
      void tail.then(() => {
        const left = (counts.get(connectionId) ?? 1) - 1;
        if (left === 0) {
          counts.delete(connectionId);
          if (tails.get(connectionId) === tail) tails.delete(connectionId);
        } else counts.set(connectionId, left);
      });
      return job;
    },
    channel: connected,
    pending: (connectionId) => counts.get(connectionId) ?? 0,
    async idle() {
      while (tails.size > 0) await Promise.all([...tails.values()]);
    },
  };
}
