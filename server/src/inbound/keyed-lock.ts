// An in-process mutex per key: work on one key runs one at a time, in arrival order; different keys
// run concurrently. The inbound pipeline keys it by company and contact, so two deliveries from one
// contact never race to create two tickets (the database's unique indexes guard other instances).

export type KeyedLock = {
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
  /** Keys with work waiting or running. */
  size(): number;
};

export function createKeyedLock(): KeyedLock {
  const tails = new Map<string, Promise<void>>();
  return {
    run(key, work) {
      const previous = tails.get(key) ?? Promise.resolve();
      const result = previous.then(work);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
    size: () => tails.size,
  };
}
