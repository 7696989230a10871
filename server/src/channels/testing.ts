// Test helpers for code built on channels: polling for an eventual state (reconnects, QR refreshes).

export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`waitFor: condition not met in ${timeoutMs} ms; last value ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}
