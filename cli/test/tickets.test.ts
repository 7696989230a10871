// `tickets list` and `tickets watch` against the real server with the simulator: tickets come from
// simulated WhatsApp messages, the list's filters are read back from --json, and the watch sees a
// new ticket arrive live (as plain lines in a pipe, and in the Ink view in a pseudo-terminal).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/src/server.ts';
import { BIN, inPty, json, login, screenOf, startTestServer, tempConfigHome, zapdesk } from './helpers.ts';

let server: RunningServer;
let home: string;
let connectionId: number;

/** The API as the logged-in CLI user, for what the CLI does not do itself (pairing by scan, accepting a ticket). */
async function http(method: string, url: string, body?: unknown) {
  const { accessToken } = JSON.parse(readFileSync(path.join(home, 'zapdesk', 'config.json'), 'utf8')) as { accessToken: string };
  const res = await fetch(`${server.apiUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${accessToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(res.status, `${method} ${url}`).toBeLessThan(300);
  return res.json() as Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const message = (from: string, name: string, text: string) => http('POST', '/simulator/messages', { connectionId, from, name, body: text });

const ids = (r: { tickets: { id: number }[] }) => r.tickets.map((t) => t.id).sort((a, b) => a - b);

/** Waits until `read()` matches, polling; fails with what was seen. */
async function waitFor(read: () => string, pattern: RegExp, ms = 60_000): Promise<RegExpMatchArray> {
  const until = Date.now() + ms;
  for (;;) {
    const m = read().match(pattern);
    if (m) return m;
    if (Date.now() > until) throw new Error(`timed out waiting for ${pattern}; output so far:\n${read()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const CONTACTS = 45;
let accepted: number;
let allIds: number[];

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
  home = tempConfigHome();
  await login(server.apiUrl, home);
  const conn = json(await zapdesk(['connections', 'add', '--name', 'Sim', '--provider', 'simulator', '--json'], { home }));
  connectionId = conn.id;
  await http('POST', `/whatsappsession/${connectionId}`);
  await http('POST', `/simulator/connections/${connectionId}/scan`, { number: '5511900000001' });
  for (let i = 0; i < CONTACTS; i++) await message(`55119770${String(i).padStart(5, '0')}`, i === 7 ? 'Zeca Aceito' : `Cliente ${i}`, `Mensagem ${i}`);
  const page = (await http('GET', '/tickets?showAll=true&pageNumber=2')) as { tickets: { id: number; contact: { name: string } }[] };
  const first = (await http('GET', '/tickets?showAll=true')) as typeof page;
  allIds = [...first.tickets, ...page.tickets].map((t) => t.id).sort((a, b) => a - b);
  expect(allIds).toHaveLength(CONTACTS);
  accepted = [...first.tickets, ...page.tickets].find((t) => t.contact.name === 'Zeca Aceito')!.id;
  await http('PUT', `/tickets/${accepted}`, { status: 'open', userId: 1 });
}, 180_000);
afterAll(() => server?.close());

describe('zapdesk tickets list', { timeout: 300_000 }, () => {
  it('pages by 40 and --all reads every page', async () => {
    const first = json(await zapdesk(['tickets', 'list', '--show-all', '--json'], { home }));
    expect(first.tickets).toHaveLength(40);
    expect(first).toMatchObject({ hasMore: true, nextPage: 2 });
    const second = json(await zapdesk(['tickets', 'list', '--show-all', '--page', '2', '--json'], { home }));
    expect(second).toMatchObject({ hasMore: false, nextPage: null });
    expect([...ids(first), ...ids(second)].sort((a, b) => a - b)).toEqual(allIds);
    expect(ids(json(await zapdesk(['tickets', 'list', '--show-all', '--all', '--json'], { home })))).toEqual(allIds);
  });

  it('filters by status, user, search and day as the server does', async () => {
    const open = json(await zapdesk(['tickets', 'list', '--status', 'open', '--show-all', '--json'], { home }));
    expect(open.tickets).toEqual([expect.objectContaining({ id: accepted, status: 'open', userId: 1, contact: expect.objectContaining({ name: 'Zeca Aceito' }) })]);
    expect(ids(json(await zapdesk(['tickets', 'list', '--users', '1', '--show-all', '--json'], { home })))).toEqual([accepted]);
    expect(ids(json(await zapdesk(['tickets', 'list', '--search', 'aceito', '--show-all', '--json'], { home })))).toEqual([accepted]);
    const pending = json(await zapdesk(['tickets', 'list', '--status', 'pending', '--show-all', '--all', '--json'], { home }));
    expect(ids(pending)).toEqual(allIds.filter((id) => id !== accepted));
    const today = new Date().toISOString().slice(0, 10);
    expect(ids(json(await zapdesk(['tickets', 'list', '--date', today, '--show-all', '--all', '--json'], { home })))).toEqual(allIds);
    expect(json(await zapdesk(['tickets', 'list', '--date', '2020-01-01', '--show-all', '--json'], { home })).tickets).toEqual([]);
  });

  it('shows a table in a pipe and refuses bad filters with exit 2', async () => {
    const run = await zapdesk(['tickets', 'list', '--status', 'open', '--show-all'], { home });
    expect(run.code, run.stderr).toBe(0);
    const [header, row] = run.stdout.split('\n');
    expect(header).toMatch(/^ID +STATUS +CONTACT +QUEUE +USER +UNREAD +TAGS +UPDATED +LAST MESSAGE$/);
    expect(row).toMatch(new RegExp(`^${accepted} +open +Zeca Aceito \\(5511977000007\\) +- +Super Admin `));
    expect(await zapdesk(['tickets', 'list', '--date', '2020-13-01'], { home })).toMatchObject({
      code: 2,
      stderr: "error: --date is not a valid day (YYYY-MM-DD) (got '2020-13-01') (see zapdesk tickets list --help)\n",
    });
    expect((await zapdesk(['tickets', 'list', '--status', 'done'], { home })).code).toBe(2);
    expect((await zapdesk(['tickets', 'list', '--queue-ids', 'x'], { home })).stderr).toMatch(/^error: --queue-ids/);
  });
});

describe('zapdesk tickets watch', { timeout: 300_000 }, () => {
  it('prints a line as a ticket arrives, changes and closes, and stops cleanly on SIGINT', async () => {
    const child = spawn(process.execPath, [BIN, 'tickets', 'watch'], {
      env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: home, LANG: 'C.UTF-8', NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));

    // First every ticket already there, oldest first (stdout and stderr are separate pipes: either may come first).
    const [, count] = await waitFor(() => err, /^watching (\d+) tickets/m);
    expect(Number(count)).toBe(CONTACTS);
    const added = () => out.split('\n').filter((l) => l.startsWith('+ ticket'));
    await waitFor(() => String(added().length), new RegExp(`^${count}$`));
    expect(added()[0]).toMatch(/^\+ ticket \d+: pending, contact Cliente 0 \(5511977000000\), queue -, user -, unread 1, tags -, updated \d{4}-\d\d-\d\d \d\d:\d\d, last message Mensagem 0$/);
    // A new customer writes, through the CLI's own simulator command.
    const sent = await zapdesk(['sim', 'send', '--from', '5511955550000', '--name', 'Nova Cliente', '--to', String(connectionId), 'Quero um orçamento'], { home });
    expect(sent.code, sent.stderr).toBe(0);
    const [, id] = await waitFor(() => out, /^\+ ticket (\d+): pending, contact Nova Cliente \(5511955550000\), .*last message Quero um orçamento$/m);
    await message('5511955550000', 'Nova Cliente', 'Pode ser amanhã?');
    await waitFor(() => out, new RegExp(`^~ ticket ${id}: pending, .*unread 2, .*last message Pode ser amanhã\\?$`, 'm'));
    await http('PUT', `/tickets/${id}`, { status: 'closed' });
    await waitFor(() => out, new RegExp(`^- ticket ${id}$`, 'm'));

    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(out.split('\n').filter((l) => l.startsWith(`+ ticket ${id}:`))).toHaveLength(1);
  });

  it('draws the live table in a terminal and quits on q', async () => {
    // A terminal wide enough for every column.
    const pty = inPty(['tickets', 'watch', '--status', 'pending'], { home, cols: 160, rows: 40 });
    const text = () => stripVTControlCharacters(pty.output());
    await waitFor(text, /Tickets 0 open · \d+ pending ● live/);
    await message('5511955551111', 'Cliente Ao Vivo', 'Olá da tela');
    await waitFor(text, /\d+ +pending +Cliente Ao Vivo \(5511955551111\) .* Olá da tela/);
    pty.write('q');
    expect(await pty.exited).toBe(0);
    expect(text()).toMatch(/ID +STATUS +CONTACT +QUEUE +USER +UNREAD +TAGS +UPDATED +LAST MESSAGE/);
  });

  it('stops on a line q in a pipe whose input stays open', async () => {
    const child = spawn(process.execPath, [BIN, 'tickets', 'watch', '--json'], {
      env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: home, LANG: 'C.UTF-8', NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.resume();
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      await waitFor(() => err, /^watching \d+ tickets/m);
      child.stdin.write('q\n'); // and the input stays open, as a script's would
      const outcome = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running 15 s after q'), 15_000))]);
      expect(outcome).toBe(0);
    } finally {
      child.stdin.end();
      child.kill();
    }
  });

  for (const cols of [80, 120]) {
    it(`redraws in place in a ${cols}-column terminal: one table on the screen, no line wider than it`, async () => {
      const rows = 30;
      const pty = inPty(['tickets', 'watch', '--status', 'pending'], { home, cols, rows });
      await pty.waitFor(/● live/);
      // Each new ticket redraws the table.
      await message(`551195555${cols}01`, `Largura ${cols} Um`, 'Primeira mensagem de um cliente com bastante texto');
      await pty.waitFor(new RegExp(`Largura ${cols} Um`));
      await message(`551195555${cols}02`, `Largura ${cols} Dois`, 'Segunda mensagem');
      await pty.waitFor(new RegExp(`Largura ${cols} Dois`));
      const screen = await screenOf(pty.output(), cols, rows);
      expect(screen.filter((l) => /^Tickets \d+ open/.test(l)), screen.join('\n')).toHaveLength(1);
      expect(screen.filter((l) => /^ID +STATUS +CONTACT/.test(l)), screen.join('\n')).toHaveLength(1);
      expect(screen.filter((l) => l.includes(`Largura ${cols} Dois`)), screen.join('\n')).toHaveLength(1);
      expect(screen[0]).toMatch(/^Tickets 0 open · \d+ pending ● live/);
      // The newest first, its contact and message narrowed to fit rather than wrapped.
      expect(screen[2]).toMatch(new RegExp(`^\\d+ +pending +Largura ${cols} Dois`));
      pty.write('q');
      expect(await pty.exited).toBe(0);
    });
  }

  it('says so when the server does not answer, prints no log line over the table, and is live again after', async () => {
    const proxy = await tcpProxy(new URL(server.apiUrl));
    try {
      const cols = 120;
      const pty = inPty(['tickets', 'watch', '--status', 'pending'], { home, cols, rows: 30, env: { ZAPDESK_URL: proxy.url } });
      await pty.waitFor(/● live/);
      const before = pty.output().length;
      await proxy.cut();
      await waitFor(() => pty.output().slice(before), /server unreachable since \d\d:\d\d:\d\d, reconnecting…/, 20_000);
      const during = await screenOf(pty.output(), cols, 30);
      expect(during[0], during.join('\n')).toMatch(/^Tickets 0 open · \d+ pending ○ server unreachable since/);
      expect(during.join('\n')).not.toContain('● live');
      // Replicache retries its pull meanwhile; its complaints must not reach the terminal.
      await new Promise((r) => setTimeout(r, 6_000));
      expect(pty.output().slice(before)).not.toMatch(/non 200|pull requestID|ECONNREFUSED/);

      const beforeRestore = pty.output().length;
      await proxy.restore();
      await message('5511955556666', 'Depois Da Queda', 'Voltou?');
      await waitFor(() => pty.output().slice(beforeRestore), /● live/, 30_000);
      await pty.waitFor(/Depois Da Queda/, 30_000);
      const after = await screenOf(pty.output(), cols, 30);
      expect(after[0]).toMatch(/^Tickets 0 open · \d+ pending ● live/);
      expect(after.filter((l) => /^Tickets \d+ open/.test(l))).toHaveLength(1);
      pty.write('q');
      expect(await pty.exited).toBe(0);
    } finally {
      await proxy.cut();
    }
  });
});

describe('zapdesk tickets watch quit while it sets itself up', { timeout: 120_000 }, () => {
  // The server is slow to answer the request the watch waits on; Ctrl-C meanwhile must end the
  // process cleanly (exit 0, at once), not kill it through the default handler nor wait for the server.
  for (const [what, held] of [
    ['who the user is', /\/auth\/me/],
    ['the first pull', /\/pull/],
  ] as const) {
    it(`exits 0 on SIGINT while waiting for ${what}`, async () => {
      const relay = await holdingRelay(server.apiUrl, held);
      const child = spawn(process.execPath, [BIN, 'tickets', 'watch'], {
        env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: home, LANG: 'C.UTF-8', NO_COLOR: '1', ZAPDESK_URL: relay.url },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      child.stdout.resume();
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
      try {
        await relay.held;
        const sent = Date.now();
        child.kill('SIGINT');
        const outcome = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running 10 s after SIGINT'), 10_000))]);
        expect(outcome, err).toEqual({ code: 0, signal: null });
        expect(Date.now() - sent).toBeLessThan(10_000);
        expect(err).not.toMatch(/error|Error/);
      } finally {
        child.kill('SIGKILL');
        await relay.close();
      }
    });
  }
});

/** An HTTP relay to the server that never answers requests whose path matches `hold`; `held` resolves at the first one. */
async function holdingRelay(target: string, hold: RegExp) {
  let onHeld!: () => void;
  const held = new Promise<void>((resolve) => (onHeld = resolve));
  const body = (req: IncomingMessage) => new Promise<Buffer>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });
  const relay = createHttpServer(async (req, res) => {
    if (hold.test(req.url ?? '')) return onHeld();
    const data = await body(req);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => ['authorization', 'content-type', 'cookie', 'accept'].includes(k))) as Record<string, string>;
    const upstream = await fetch(new URL(req.url ?? '/', target), { method: req.method, headers, body: data.length ? new Uint8Array(data) : undefined });
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(relay.address() as { port: number }).port}`,
    held,
    close: () => {
      relay.closeAllConnections();
      return new Promise((resolve) => relay.close(resolve));
    },
  };
}

/**
 * A TCP relay to the server that can be cut (every connection closed, new ones refused, as when the
 * server is down) and restored on the same port: an outage without stopping the real server.
 */
async function tcpProxy(target: URL) {
  const sockets = new Set<Socket>();
  let listener: Server | undefined;
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const listen = (port: number) =>
    new Promise<number>((resolve) => {
      listener = createServer((client) => {
        const upstream = connect(Number(target.port), target.hostname);
        track(client);
        track(upstream);
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      listener.listen(port, '127.0.0.1', () => resolve((listener!.address() as { port: number }).port));
    });
  const port = await listen(0);
  return {
    url: `http://127.0.0.1:${port}`,
    async cut() {
      const closing = listener ? new Promise((r) => listener!.close(r)) : Promise.resolve();
      listener = undefined;
      for (const s of sockets) s.destroy();
      await closing;
    },
    restore: () => listen(port),
  };
}

