// A small structured logger: one JSON line per event on stdout/stderr (quiet under tests).
export type Logger = {
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
};

export function createLogger(opts: { silent?: boolean } = {}): Logger {
  const write = (level: string, msg: string, data?: Record<string, unknown>) => {
    if (opts.silent) return;
    const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...data });
    (level === 'error' ? process.stderr : process.stdout).write(`${line}\n`);
  };
  return {
    info: (m, d) => write('info', m, d),
    warn: (m, d) => write('warn', m, d),
    error: (m, d) => write('error', m, d),
  };
}

/** A logger that keeps what it was told, for tests that read the log (the reset code, for one). */
export function createMemoryLogger(): Logger & { lines: { level: string; msg: string; data?: Record<string, unknown> }[] } {
  const lines: { level: string; msg: string; data?: Record<string, unknown> }[] = [];
  const push = (level: string) => (msg: string, data?: Record<string, unknown>) => void lines.push({ level, msg, data });
  return { lines, info: push('info'), warn: push('warn'), error: push('error') };
}
