// How a person ends a live view: q (a key on a TTY, a line elsewhere), Ctrl-C, SIGINT or SIGTERM.
// Shared by `tickets watch` and `campaigns report --watch`; the view may also end by itself (the
// campaign finished), so the listening can be stopped from outside and leaves stdin as it was.
import type { Ctx } from '../context.ts';

const CTRL_C = String.fromCharCode(3);

/** Calls `onQuit` once when the person quits; the returned function stops listening (idempotent). */
export function listenForQuit(ctx: Ctx, onQuit: () => void): () => void {
  const { stdin } = ctx.io;
  const raw = Boolean(stdin.isTTY && stdin.setRawMode);
  let stopped = false;
  const onData = (chunk: Buffer | string) => {
    const text = String(chunk);
    // Raw mode delivers Ctrl-C as the byte 3 instead of a SIGINT.
    if (raw ? /[qQ]/.test(text) || text.includes(CTRL_C) : /^\s*q\s*$/im.test(text)) quit();
  };
  function stop() {
    if (stopped) return;
    stopped = true;
    process.off('SIGINT', quit);
    process.off('SIGTERM', quit);
    stdin.off('data', onData);
    if (raw) stdin.setRawMode!(false);
    // A paused pipe still holds the event loop open until the writer closes it: the process
    // would wait for the end of an input that may never come (`q` typed into a long-lived pipe).
    if (raw) stdin.pause();
    else stdin.destroy();
  }
  function quit() {
    if (stopped) return;
    stop();
    onQuit();
  }
  process.once('SIGINT', quit);
  process.once('SIGTERM', quit);
  if (raw) stdin.setRawMode!(true);
  stdin.on('data', onData);
  stdin.resume();
  return stop;
}

/**
 * A quit that may come at any time from now on: `done` resolves and `signal` aborts when the person
 * quits or after `seconds`; `stop` ends the listening (idempotent). Listening starts at once, before
 * any slow setup, so a Ctrl-C during that setup can abandon it (pass `signal` to it) and end the
 * view cleanly instead of the default handler killing the process halfway.
 */
export function quitSignal(ctx: Ctx, seconds: number | undefined): { done: Promise<void>; signal: AbortSignal; stop(): void } {
  const quitting = new AbortController();
  const done = new Promise<void>((resolve) => quitting.signal.addEventListener('abort', () => resolve(), { once: true }));
  const timer = seconds ? setTimeout(() => finish(), seconds * 1000) : undefined;
  const stopListening = listenForQuit(ctx, () => finish());
  function finish() {
    clearTimeout(timer);
    stopListening();
    quitting.abort();
  }
  return { done, signal: quitting.signal, stop: finish };
}
