// A typed event emitter for adapters. Unlike node's EventEmitter, emit() collects what listeners
// return, so the simulator can answer its HTTP control only after the pipeline has run.
import type { ChannelEventName, ChannelEvents } from './types.ts';

export type ChannelEmitter = {
  on<E extends ChannelEventName>(event: E, listener: ChannelEvents[E]): () => void;
  /** Calls every listener; a throwing or rejecting listener is reported, never thrown at the adapter. */
  emit<E extends ChannelEventName>(event: E, ...args: Parameters<ChannelEvents[E]>): Promise<void>;
};

export function createChannelEmitter(onListenerError: (event: string, err: unknown) => void): ChannelEmitter {
  const listeners = new Map<ChannelEventName, Set<(...args: unknown[]) => unknown>>();
  return {
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      const fn = listener as (...args: unknown[]) => unknown;
      set.add(fn);
      return () => void set.delete(fn);
    },
    async emit(event, ...args) {
      const pending: unknown[] = [];
      for (const fn of [...(listeners.get(event) ?? [])]) {
        try {
          pending.push(fn(...args));
        } catch (err) {
          onListenerError(event, err);
        }
      }
      const settled = await Promise.allSettled(pending);
      for (const s of settled) if (s.status === 'rejected') onListenerError(event, s.reason);
    },
  };
}
