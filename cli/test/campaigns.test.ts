// `zapdesk campaigns` as a user runs it: the CLI process against the real server on a fresh database
// (SQLite, or PostgreSQL with TEST_POSTGRES_URL) with the simulator. A campaign is written as a
// YAML file naming the connection and the contact list, started with no pause between messages
// (settings), followed with `report --watch` in a pipe and in a terminal, and read back with
// --json; pause and restart send every recipient exactly once; bad files, unknown ids and bad
// usage each end with their exit code and one line.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/src/server.ts';
import { inPty, json, login, screenOf, startTestServer, tempConfigHome, zapdesk } from './helpers.ts';

let server: RunningServer;
let home: string;
let dir: string;
let connectionId: number;

/** The API as the logged-in CLI user, for what the CLI does not do itself (pairing by scan, the simulator's outbox). */
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

const NUMBERS = ['5511988870001', '5511988870002', '5511988870003', '5511988870004', '5511988870005'];

/** A campaign file in `dir`, as a person writes it. */
function campaignFile(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** What the simulated network received from the connection, per number, whose text contains `marker`. */
async function sentTo(marker: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const number of NUMBERS) {
    const entries = (await http('GET', `/simulator/outbox?connectionId=${connectionId}&to=${number}`)) as { body: string }[];
    out[number] = entries.filter((e) => e.body.includes(marker)).length;
  }
  return out;
}

const everyNumber = (count: number) => Object.fromEntries(NUMBERS.map((n) => [n, count]));
const oneLine = (text: string) => text.trim().split('\n');

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
  home = tempConfigHome();
  dir = tempConfigHome();
  await login(server.apiUrl, home);
  connectionId = json(await zapdesk(['connections', 'add', '--name', 'Vendas', '--provider', 'simulator', '--json'], { home })).id;
  await http('POST', `/whatsappsession/${connectionId}`);
  await http('POST', `/simulator/connections/${connectionId}/scan`, { number: '5511900000003' });
  const list = json(await zapdesk(['contact-lists', 'create', 'Clientes VIP', '--json'], { home }));
  const csv = path.join(dir, 'vip.csv');
  writeFileSync(csv, `name,number\n${NUMBERS.map((n, i) => `Cliente ${i + 1},${n}`).join('\n')}\n`);
  expect(json(await zapdesk(['contact-lists', 'import', csv, '--list', String(list.id), '--json'], { home }))).toMatchObject({ imported: NUMBERS.length });
}, 120_000);
afterAll(() => server?.close());

describe('zapdesk campaigns settings', { timeout: 60_000 }, () => {
  it('shows the defaults, saves --set values checked by the shared schema, and refuses a bad one with exit 2', async () => {
    const before = json(await zapdesk(['campaigns', 'settings', '--json'], { home }));
    expect(before.settings).toMatchObject({ messageInterval: 20, longerIntervalAfter: 20, ticketOnReplyOnly: true, sendWindowStart: null });
    const table = await zapdesk(['campaigns', 'settings'], { home });
    expect(table.stdout).toMatch(/messageInterval\s+20\s+default/);

    // No pause between messages, so the campaigns below finish in seconds.
    const saved = json(await zapdesk(['campaigns', 'settings', '--set', 'messageInterval=0', '--set', 'messageJitter=0', '--set', 'longerIntervalAfter=0', '--set', 'timeZone=America/Sao_Paulo', '--json'], { home }));
    expect(saved.settings).toMatchObject({ messageInterval: 0, messageJitter: 0, longerIntervalAfter: 0, timeZone: 'America/Sao_Paulo' });
    expect(saved.changed).toEqual(['messageInterval', 'messageJitter', 'longerIntervalAfter', 'timeZone']);
    expect([...saved.saved].sort()).toEqual(['longerIntervalAfter', 'messageInterval', 'messageJitter', 'timeZone']);
    const after = await zapdesk(['campaigns', 'settings'], { home });
    expect(after.stdout).toMatch(/messageInterval\s+0\s+saved/);
    expect(after.stdout).toMatch(/greaterInterval\s+60\s+default/);

    const unknown = await zapdesk(['campaigns', 'settings', '--set', 'messageIntervall=5'], { home });
    expect([unknown.code, oneLine(unknown.stderr)[0]]).toEqual([2, expect.stringContaining('messageIntervall=5: unknown setting')]);
    const bad = await zapdesk(['campaigns', 'settings', '--set', 'sendWindowStart=25:00'], { home });
    expect([bad.code, oneLine(bad.stderr)[0]]).toEqual([2, expect.stringContaining('--set sendWindowStart')]);
    expect(json(await zapdesk(['campaigns', 'settings', '--json'], { home })).settings.sendWindowStart).toBeNull();
  });
});

describe('zapdesk campaigns', { timeout: 180_000 }, () => {
  let firstId: number;

  it('creates a campaign from a YAML file naming the connection and the list, lists it and shows it', async () => {
    const file = campaignFile(
      'black-friday.yaml',
      ['name: Black Friday', 'connection: Vendas', 'contactList: Clientes VIP', 'messages:', '  - "BF1 Oi {primeiro-nome}, 30% hoje"', '  - "BF1 {saudacao}, {nome}: 30% hoje"', ''].join('\n'),
    );
    const created = json(await zapdesk(['campaigns', 'create', '--from-file', file, '--json'], { home }));
    firstId = created.id;
    expect(created).toMatchObject({ name: 'Black Friday', status: 'INATIVA', whatsappId: connectionId, contactList: { name: 'Clientes VIP' }, message1: 'BF1 Oi {primeiro-nome}, 30% hoje', message3: '' });

    const listed = json(await zapdesk(['campaigns', 'list', '--json'], { home }));
    expect(listed.records.map((c: { id: number; status: string }) => [c.id, c.status])).toEqual([[firstId, 'INATIVA']]);
    expect(json(await zapdesk(['campaigns', 'list', '--status', 'FINALIZADA', '--json'], { home })).records).toEqual([]);
    expect(json(await zapdesk(['campaigns', 'show', String(firstId), '--json'], { home }))).toMatchObject({ id: firstId, editable: true, whatsapp: { name: 'Vendas' } });
    const shown = await zapdesk(['campaigns', 'show', String(firstId)], { home });
    expect(shown.stdout).toContain(`Campaign ${firstId}: Black Friday`);
    expect(shown.stdout).toMatch(/message 2\s+BF1 \{saudacao\}, \{nome\}: 30% hoje/);
    const table = await zapdesk(['campaigns', 'list', '--search', 'black'], { home });
    expect(table.stdout).toMatch(new RegExp(`${firstId}\\s+Black Friday\\s+INATIVA\\s+Vendas\\s+Clientes VIP`));
  });

  it('looks up a tag list and a file list by name, and takes a confirmation campaign with its questions', async () => {
    const tag = await http('POST', '/tags', { name: 'Recompra' });
    const files = await http('POST', '/files', { name: 'Catálogo', message: 'Nosso catálogo', options: [{ name: 'PDF' }] });
    const file = campaignFile(
      'confirm.yaml',
      [
        'name: Pergunta antes',
        `connection: ${connectionId}`,
        'tagList: recompra',
        'fileList: Catálogo',
        'messages: "Aqui está o catálogo, {primeiro-nome}"',
        'confirmation: true',
        'confirmationMessages: ["Posso te mandar o catálogo? Responda SIM ou NAO"]',
        'scheduledAt: 2030-01-01T09:00:00-03:00',
      ].join('\n'),
    );
    const created = json(await zapdesk(['campaigns', 'create', '--from-file', file, '--json'], { home }));
    expect(created).toMatchObject({ status: 'PROGRAMADA', tagId: tag.id, fileListId: files.id, contactListId: null, confirmation: true, message1: 'Aqui está o catálogo, {primeiro-nome}', confirmationMessage1: 'Posso te mandar o catálogo? Responda SIM ou NAO' });
    expect(json(await zapdesk(['campaigns', 'list', '--status', 'PROGRAMADA', '--json'], { home })).records.map((c: { id: number }) => c.id)).toEqual([created.id]);
    const deleted = await zapdesk(['campaigns', 'delete', String(created.id), '--yes'], { home });
    expect(deleted.code, deleted.stderr).toBe(0);
  });

  it('starts it, follows it with report --watch in a pipe until FINALIZADA, and reports every recipient sent', async () => {
    const started = await zapdesk(['campaigns', 'start', String(firstId)], { home });
    expect(started.code, started.stderr).toBe(0);
    // Five messages with no pause may all be gone before start has looked again.
    expect(started.stdout).toMatch(new RegExp(`^(Started campaign ${firstId}: Black Friday \\(EM_ANDAMENTO\\)|Campaign ${firstId}: Black Friday (is scheduled|was sent and has finished))`));

    const watched = await zapdesk(['campaigns', 'report', String(firstId), '--watch'], { home });
    expect(watched.code, watched.stderr).toBe(0);
    const progress = oneLine(watched.stderr);
    for (const line of progress) expect(line).toMatch(new RegExp(`^campaign ${firstId} (EM_ANDAMENTO|PROGRAMADA|FINALIZADA): \\d+/5 handled \\(\\d+%\\), \\d+ sent, `));
    expect(progress.at(-1)).toMatch(new RegExp(`^campaign ${firstId} FINALIZADA: 5/5 handled \\(100%\\), 5 sent, 0 delivered, 0 read, 0 failed, 0 pending, 0 queued, 0 skipped$`));
    // stdout: the report as without --watch.
    expect(watched.stdout).toContain(`Campaign ${firstId}: Black Friday (FINALIZADA)`);
    expect(watched.stdout).toMatch(/sent\s+5/);

    const report = json(await zapdesk(['campaigns', 'report', String(firstId), '--all', '--json'], { home }));
    expect(report.campaign.status).toBe('FINALIZADA');
    expect(report.totals).toMatchObject({ recipients: 5, sent: 5, failed: 0, pending: 0 });
    expect(report.shipping.map((s: { number: string; state: string }) => [s.number, s.state]).sort()).toEqual(NUMBERS.map((n) => [n, 'sent']));
    expect(report.shipping.every((s: { message: string; name: string }) => s.message.startsWith('BF1 ') && !s.message.includes('{'))).toBe(true);
    expect(await sentTo('BF1 ')).toEqual(everyNumber(1));

    // A finished campaign: --watch has nothing to wait for; the recipients as a table.
    const again = await zapdesk(['campaigns', 'report', String(firstId), '--watch', '--recipients'], { home });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/NUMBER\s+NAME\s+STATE/);
    expect(again.stdout).toMatch(/5511988870003\s+Cliente 3\s+sent/);
    const refused = await zapdesk(['campaigns', 'start', String(firstId)], { home });
    expect([refused.code, oneLine(refused.stderr)]).toEqual([1, [`error: campaign ${firstId} is FINALIZADA: it has finished`]]);
  });

  it('pauses a running campaign (CANCELADA) and restarts it where it stopped: each recipient gets one message', async () => {
    // Slow enough to pause in the middle: one message every 3 seconds.
    json(await zapdesk(['campaigns', 'settings', '--set', 'messageInterval=3', '--json'], { home }));
    const file = campaignFile('slow.json', JSON.stringify({ name: 'Slow one', connection: connectionId, contactList: 'clientes vip', messages: ['SLOW Oi {primeiro-nome}'] }));
    const created = json(await zapdesk(['campaigns', 'create', '--from-file', file, '--start', '--json'], { home }));
    expect(created.status).toBe('PROGRAMADA');
    await waitUntil(async () => json(await zapdesk(['campaigns', 'report', String(created.id), '--json'], { home })).totals.sent >= 1);

    const paused = await zapdesk(['campaigns', 'pause', String(created.id)], { home });
    expect([paused.code, paused.stdout.trim()]).toEqual([0, `Paused campaign ${created.id}: Slow one (CANCELADA). Continue it with: zapdesk campaigns restart ${created.id}`]);
    const atPause = json(await zapdesk(['campaigns', 'report', String(created.id), '--json'], { home }));
    expect(atPause.campaign.status).toBe('CANCELADA');
    expect(atPause.totals.sent + atPause.totals.queued).toBeLessThan(5);
    const twice = await zapdesk(['campaigns', 'cancel', String(created.id)], { home });
    expect([twice.code, oneLine(twice.stderr)]).toEqual([1, [`error: campaign ${created.id} is CANCELADA: it is stopped already`]]);

    json(await zapdesk(['campaigns', 'settings', '--set', 'messageInterval=0', '--json'], { home }));
    const restarted = await zapdesk(['campaigns', 'restart', String(created.id)], { home });
    expect([restarted.code, restarted.stdout]).toEqual([0, expect.stringContaining(`Restarted campaign ${created.id}: Slow one (EM_ANDAMENTO)`)]);
    // --watch --json: progress on stderr, the final report alone on stdout.
    const done = await zapdesk(['campaigns', 'report', String(created.id), '--watch', '--json'], { home });
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ campaign: { status: 'FINALIZADA' }, totals: { recipients: 5, sent: 5 } });
    expect(await sentTo('SLOW ')).toEqual(everyNumber(1));

    const deleted = await zapdesk(['campaigns', 'delete', String(created.id), '--yes'], { home });
    expect([deleted.code, deleted.stdout.trim()]).toEqual([0, `Deleted campaign ${created.id}.`]);
  });

  it('draws the live progress view in a terminal and ends at FINALIZADA', async () => {
    json(await zapdesk(['campaigns', 'settings', '--set', 'messageInterval=1', '--json'], { home }));
    const file = campaignFile('tty.yaml', 'name: On screen\nconnection: Vendas\ncontactList: Clientes VIP\nmessages: ["TTY Oi {primeiro-nome}"]\n');
    const created = json(await zapdesk(['campaigns', 'create', '--from-file', file, '--start', '--json'], { home }));
    const pty = inPty(['campaigns', 'report', String(created.id), '--watch'], { home, cols: 100, rows: 20 });
    // Under way first (a message a second), then the last frame.
    await pty.waitFor(/EM_ANDAMENTO.*● live/);
    expect(await pty.exited).toBe(0);
    json(await zapdesk(['campaigns', 'settings', '--set', 'messageInterval=0', '--json'], { home }));
    const screen = (await screenOf(pty.output(), 100, 20)).join('\n');
    expect(screen).toMatch(new RegExp(`Campaign ${created.id} · On screen FINALIZADA`));
    expect(screen).toMatch(/█{10,} 100% · 5 of 5 handled/);
    expect(screen).toMatch(/5 sent · 0 delivered · 0 read · 0 failed/);
    // The live view is the output: no second copy of the totals under it.
    expect(screen).not.toMatch(/recipients\s+5/);
  });

  it('says what is wrong with a campaign file in one line naming the field (exit 1)', async () => {
    const cases: [string, string, RegExp][] = [
      ['six.yaml', `name: Six\nconnection: Vendas\ncontactList: Clientes VIP\nmessages: [a, b, c, d, e, f]\n`, /six\.yaml: messages: give 1 to 5 variants \(got 6\)/],
      ['typo.yaml', `name: Typo\nconnection: Vendas\ncontactList: Clientes VIP\nmesages: [a]\n`, /typo\.yaml: mesages: unknown field \(did you mean messages\?\)/],
      ['nobody.yaml', `name: Nobody\nconnection: Vendas\nmessages: [a]\n`, /nobody\.yaml: contactList: give a contact list or a tag list/],
      ['noconn.yaml', `name: No conn\nconnection: Compras\ncontactList: Clientes VIP\nmessages: [a]\n`, /noconn\.yaml: connection: no connection is named "Compras" \(see: zapdesk connections list\)/],
      ['nolist.yaml', `name: No list\nconnection: Vendas\ncontactList: 999999\nmessages: [a]\n`, /nolist\.yaml: contactList: not found/],
      ['empty.yaml', `name: Empty\nconnection: Vendas\ncontactList: Clientes VIP\nmessages: ["ok", "  "]\n`, /empty\.yaml: messages\.2: a message may not be empty/],
      ['past.yaml', `name: Past\nconnection: Vendas\ncontactList: Clientes VIP\nmessages: [a]\nscheduledAt: 2020-01-01T10:00:00Z\n`, /past\.yaml: scheduledAt: The time has passed/],
      ['broken.yaml', `name: [unclosed\n`, /broken\.yaml is not valid YAML/],
    ];
    for (const [name, text, pattern] of cases) {
      const run = await zapdesk(['campaigns', 'create', '--from-file', campaignFile(name, text)], { home });
      expect([name, run.code, oneLine(run.stderr).length], run.stderr).toEqual([name, 1, 1]);
      expect(run.stderr).toMatch(pattern);
    }
    expect(json(await zapdesk(['campaigns', 'list', '--json'], { home })).records.map((c: { name: string }) => c.name)).not.toContain('Six');
  });

  it('an unknown campaign is exit 1 in one line; bad usage is exit 2', async () => {
    for (const args of [['show', '99999'], ['start', '99999'], ['pause', '99999'], ['restart', '99999'], ['report', '99999'], ['report', '99999', '--watch'], ['delete', '99999', '--yes']]) {
      const run = await zapdesk(['campaigns', ...args], { home });
      expect([args.join(' '), run.code, oneLine(run.stderr)]).toEqual([args.join(' '), 1, [expect.stringMatching(/not found|Nothing found/i)]]);
    }
    const file = campaignFile('both.yaml', 'name: Both\nconnection: Vendas\ncontactList: Clientes VIP\nmessages: [a]\nscheduledAt: 2030-01-01T10:00:00Z\n');
    for (const args of [['show', 'abc'], ['list', '--status', 'DONE'], ['create'], ['create', '--from-file', file, '--start'], ['report', '1', '--poll'], ['settings', '--set', 'nokey'], ['nosuch']]) {
      const run = await zapdesk(['campaigns', ...args], { home });
      expect([args.join(' '), run.code], run.stderr).toEqual([args.join(' '), 2]);
    }
  });
});

async function waitUntil(check: () => Promise<boolean>, ms = 30_000) {
  for (const until = Date.now() + ms; ; ) {
    if (await check()) return;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}
