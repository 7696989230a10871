// `connections pair` against the real server with the simulator: the QR is drawn, redrawn as the
// server emits new ones, and the command exits 0 on a simulated scan (in a pseudo-terminal, through
// the Ink view) or 1 on TIMEOUT (in a pipe, as plain lines).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/src/server.ts';
import { write } from '../../server/src/db/write.ts';
import { beginConnectionDelete } from '../../server/src/modules/whatsapps/service.ts';
import { inPty, login, startTestServer, tempConfigHome, zapdesk } from './helpers.ts';

let server: RunningServer;
let home: string;

beforeAll(async () => {
  server = await startTestServer({ simulator: true, simulatorTiming: { qrIntervalMs: 2_500, qrMaxAttempts: 8, reconnectDelayMs: 200 } });
  home = tempConfigHome();
  await login(server.apiUrl, home);
});
afterAll(() => server?.close());

async function addConnection(name: string): Promise<number> {
  const run = await zapdesk(['connections', 'add', '--name', name, '--provider', 'simulator', '--json'], { home });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout).id as number;
}

describe('zapdesk connections pair', { timeout: 120_000 }, () => {
  it('draws the QR in a terminal and exits 0 once a scan connects it', async () => {
    const id = await addConnection('Pairing test');
    const pty = inPty(['connections', 'pair', String(id)], { home, rows: 60 });
    await pty.waitFor(/qrcode.*QR 1/);
    // Half-block characters of the terminal renderer: a QR is on the screen.
    expect(pty.output()).toMatch(/[▀▄█]{5}/);
    // The frame may come in several writes: the lines under the QR can follow its head line later.
    await pty.waitFor(/Link a device/);
    // Scanned straight over HTTP with the CLI's own token: a second CLI process may start too slowly
    // on a busy machine to catch the QR before it times out (`sim scan` is tested in the next case).
    const { accessToken } = JSON.parse(readFileSync(path.join(home, 'zapdesk', 'config.json'), 'utf8')) as { accessToken: string };
    const scan = await fetch(`${server.apiUrl}/simulator/connections/${id}/scan`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ number: '5511955554444' }),
    });
    expect(scan.status).toBe(200);
    expect(await pty.exited).toBe(0);
    expect(pty.output()).toContain(`Connected: Pairing test (connection ${id}), number 5511955554444.`);

    const list = JSON.parse((await zapdesk(['connections', 'list', '--json'], { home })).stdout) as { id: number; status: string }[];
    expect(list.find((c) => c.id === id)?.status).toBe('CONNECTED');
  });

  it('prints each new QR as plain lines in a pipe and exits 1 when nobody scans (TIMEOUT)', async () => {
    const id = await addConnection('Nobody scans');
    const run = await zapdesk(['connections', 'pair', String(id), '--json'], { home });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    // Each QR the client saw, numbered in order (a busy machine may coalesce two into one update).
    const statusLines = run.stderr.split('\n').filter((l) => l.startsWith(`connection ${id}:`));
    const qrLines = statusLines.filter((l) => l.includes('qrcode'));
    expect(qrLines.length).toBeGreaterThanOrEqual(2);
    qrLines.forEach((line, i) => expect(line).toBe(`connection ${id}: qrcode (QR ${i + 1})`));
    expect(statusLines.at(-1)).toBe(`connection ${id}: TIMEOUT`);
    // The simulator's scan through the CLI: a connection that is not showing a QR refuses it.
    const scan = await zapdesk(['sim', 'scan', String(id)], { home });
    expect(scan).toMatchObject({ code: 1, stderr: 'error: This WhatsApp session is not initialized. Check the connections page.\n' });
    expect(run.stderr.match(/▀▀▀▀▀/g)?.length).toBeGreaterThanOrEqual(qrLines.length);
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe(`error: connection ${id} (Nobody scans) did not pair: TIMEOUT`);
  });

  it('reports what the server says now, not the CONNECTED its local store remembers from before', async () => {
    const id = await addConnection('Connected before');
    expect((await zapdesk(['sim', 'scan', String(id)], { home })).code).toBe(1); // not showing a QR yet
    const { accessToken } = JSON.parse(readFileSync(path.join(home, 'zapdesk', 'config.json'), 'utf8')) as { accessToken: string };
    const call = (url: string, method = 'POST') => fetch(`${server.apiUrl}${url}`, { method, headers: { authorization: `Bearer ${accessToken}` } });
    expect((await call(`/whatsappsession/${id}`)).status).toBe(200);
    expect((await call(`/simulator/connections/${id}/scan`)).status).toBe(200);
    // The CLI's local store syncs while the connection is CONNECTED (a watch syncs the whole view).
    expect((await zapdesk(['tickets', 'watch', '--for', '1'], { home })).code).toBe(0);
    expect((await zapdesk(['connections', 'disconnect', String(id)], { home })).code).toBe(0);

    // Now it shows a QR again and nobody scans: the pairing must wait, not say CONNECTED.
    const run = await zapdesk(['connections', 'pair', String(id), '--timeout', '5', '--json'], { home });
    expect(run.stderr).not.toContain('CONNECTED');
    expect(run.stderr).toContain(`connection ${id}: qrcode (QR 1)`);
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe(`error: connection ${id} (Connected before) did not pair: TIMEOUT`);
  });

  it('list says a connection whose delete was cut short is being deleted', async () => {
    const id = await addConnection('Cut short');
    const { companyId } = await server.deps.db.selectFrom('whatsapps').select('companyId').where('id', '=', id).executeTakeFirstOrThrow();
    // As a delete that stopped after its first write leaves it (the slices and the row still to go).
    await write(server.deps, (tx) => beginConnectionDelete(tx, companyId, id));
    const list = await zapdesk(['connections', 'list'], { home });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout.split('\n').find((l) => l.includes('Cut short'))).toMatch(/DISCONNECTED \(being deleted\)/);
    const rows = JSON.parse((await zapdesk(['connections', 'list', '--json'], { home })).stdout) as { id: number; deleting: boolean }[];
    expect(rows.find((c) => c.id === id)).toMatchObject({ status: 'DISCONNECTED', deleting: true });
    expect(rows.filter((c) => c.id !== id).every((c) => !c.deleting)).toBe(true);
  });
});
