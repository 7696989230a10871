// Every `--help` example that pipes --json into jq, run as printed against the real server with
// data for its ids, and its jq filter applied to the real output. The filter is applied by a
// small strict evaluator of the jq used in the examples (paths, .[], map, select, {a, b}, |): a
// key missing from an object or a map over an object is an error here, as jq's "Cannot index"
// is. jq itself need not be installed for the test; where it is, the output is also piped to it.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/src/server.ts';
import { commandTree } from '../src/commands/index.ts';
import { login, startTestServer, tempConfigHome, zapdesk } from './helpers.ts';

let server: RunningServer;
let home: string;
let dir: string;

const accessToken = () => (JSON.parse(readFileSync(path.join(home, 'zapdesk', 'config.json'), 'utf8')) as { accessToken: string }).accessToken;

/** The API as the logged-in CLI user, for what the examples need to exist. */
async function http<T = { id: number }>(method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.apiUrl}${url}`, { method, headers: { authorization: `Bearer ${accessToken()}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  expect(res.status, `${method} ${url}`).toBeLessThan(300);
  return res.json() as Promise<T>;
}

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
  home = tempConfigHome();
  dir = tempConfigHome();
  await login(server.apiUrl, home);
  // Company 2 (companies get 2, renew 2); connections 1 to 3, the third one paired (pair 3 answers at once).
  expect((await zapdesk(['companies', 'create', '--name', 'Example Co', '--email', 'ex@example.test', '--plan-id', '1', '--json'], { home })).code).toBe(0);
  for (const name of ['One', 'Two', 'Three']) expect((await zapdesk(['connections', 'add', '--name', name, '--provider', 'simulator', '--json'], { home })).code).toBe(0);
  await http('POST', '/whatsappsession/3');
  await http('POST', '/simulator/connections/3/scan', { number: '5511900000003' });
  // An open ticket (tickets list --status open) and a pending one (tickets watch).
  await http('POST', '/simulator/messages', { connectionId: 3, from: '5511977770001', name: 'Ana', body: 'Oi' });
  await http('POST', '/simulator/messages', { connectionId: 3, from: '5511977770002', name: 'Bia', body: 'Olá' });
  const { tickets } = await http<{ tickets: { id: number }[] }>('GET', '/tickets?showAll=true');
  await http('PUT', `/tickets/${tickets[0]!.id}`, { status: 'open', userId: 1 });
  // Contact lists 1 to 3 (contact-lists import --list 3).
  for (const name of ['Leads', 'Clients', 'Events']) await http('POST', '/contact-lists', { name });
  // A file list with its options (files list … | jq '.files[].options').
  await http('POST', '/files', { name: 'Price lists', message: 'Our prices', options: [{ name: 'Retail' }, { name: 'Wholesale' }] });
  writeFileSync(path.join(dir, 'leads.csv'), 'name,number,email\nLead One,5511966660001,l1@example.test\n');
  // Campaigns 1 to 3 (campaigns show 3, pause 3, cancel 2, list --search black), programmed for later so
  // they can be paused; and the file of campaigns create --from-file campaign.json.
  for (const name of ['Black Friday', 'Christmas', 'New Year']) await http('POST', '/campaigns', { name, whatsappId: 3, contactListId: 1, message1: 'Hi {primeiro-nome}', scheduledAt: '2030-01-01T12:00:00Z' });
  // Webhooks 1 to 3, a test delivery of the third in its log (webhooks deliveries 3).
  for (const name of ['CRM', 'Audit', 'Billing']) await http('POST', '/webhooks', { name, url: 'http://127.0.0.1:9/hook', events: ['ticket.created'] });
  await http('POST', '/webhooks/3/test');
  writeFileSync(path.join(dir, 'campaign.json'), JSON.stringify({ name: 'From a file', connection: 'Three', contactList: 'Leads', messages: ['Hi {primeiro-nome}'] }));
}, 180_000);
afterAll(() => server?.close());

type Json = unknown;

/** Splits at `sep` outside quotes, brackets and braces. */
function splitTop(text: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"') quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (depth === 0 && text.startsWith(sep, i)) {
      parts.push(text.slice(start, i));
      start = i + sep.length;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim());
}

/** A path like `.a.b`, `.[]`, `.a[].b`, applied strictly. */
function applyPath(filter: string, input: Json): Json[] {
  let values: Json[] = [input];
  for (const step of filter.match(/\.[A-Za-z_]\w*|\[\]|\./g) ?? []) {
    if (step === '.') continue;
    values = values.flatMap((v) => {
      if (step === '[]') {
        if (!Array.isArray(v)) throw new Error(`cannot iterate over ${JSON.stringify(v)?.slice(0, 60)}`);
        return v;
      }
      const key = step.slice(1);
      if (v === null || typeof v !== 'object' || Array.isArray(v) || !(key in v)) throw new Error(`no key "${key}" in ${JSON.stringify(v)?.slice(0, 80)}`);
      return [(v as Record<string, Json>)[key]];
    });
  }
  return values;
}

function evaluate(filter: string, input: Json): Json[] {
  const stages = splitTop(filter, '|');
  if (stages.length > 1) return stages.reduce<Json[]>((values, stage) => values.flatMap((v) => evaluate(stage, v)), [input]);
  const f = stages[0]!;
  const call = /^(map|select)\((.*)\)$/.exec(f);
  if (call?.[1] === 'map') {
    if (!Array.isArray(input)) throw new Error(`map over ${JSON.stringify(input)?.slice(0, 60)}`);
    return [input.flatMap((x) => evaluate(call[2]!, x))];
  }
  if (call?.[1] === 'select') {
    const [left, op, right] = /^(.*?)\s*(==|!=)\s*(.*)$/.exec(call[2]!)!.slice(1) as [string, string, string];
    const value = evaluate(left, input)[0];
    const literal = JSON.parse(right) as Json;
    return (op === '==') === (JSON.stringify(value) === JSON.stringify(literal)) ? [input] : [];
  }
  if (f.startsWith('{')) {
    const keys = f.slice(1, -1).split(',').map((k) => k.trim());
    return [Object.fromEntries(keys.map((k) => [k, applyPath(`.${k}`, input)[0]]))];
  }
  return applyPath(f, input);
}

/** `zapdesk ARGS [2>/dev/null] | jq [-r|-c] 'FILTER'` → the CLI's args and the filter. */
function parseExample(example: string): { args: string[]; filter: string } | undefined {
  const m = /^zapdesk (.*?)(?: 2>\/dev\/null)? \| jq(?: -[rc])* (?:'(.*)'|(\S+))$/.exec(example);
  if (!m) return undefined;
  const args = (m[1]!.match(/"[^"]*"|'[^']*'|\S+/g) ?? []).map((a) => a.replace(/^(["'])(.*)\1$/, '$2'));
  return { args, filter: m[2] ?? m[3]! };
}

const hasJq = (() => {
  try {
    execFileSync('jq', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('the --help examples', { timeout: 300_000 }, () => {
  it('that pipe --json into jq work as printed on the real output', async () => {
    const examples: string[] = [];
    for (const lazy of Object.values(commandTree)) {
      const entry = await lazy.load();
      for (const spec of 'commands' in entry ? Object.values(entry.commands) : [entry]) examples.push(...spec.examples.filter((e: string) => e.includes('| jq')));
    }
    expect(examples.length).toBeGreaterThanOrEqual(12);
    for (const example of examples) {
      const parsed = parseExample(example);
      expect(parsed, example).toBeDefined();
      const args = parsed!.args.map((a) => (/\.(csv|json)$/.test(a) ? path.join(dir, a) : a));
      // A watch runs until stopped: eight seconds of it. Its setup (who am I, the first pull) comes
      // first, and took more than two on a busy CI machine, which left nothing printed.
      const run = await zapdesk(args[1] === 'watch' ? [...args, '--for', '8'] : args, { home });
      expect(run.code, `${example}\n${run.stderr}`).toBe(0);
      const documents = args[1] === 'watch' ? run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Json) : [JSON.parse(run.stdout) as Json];
      const results = documents.flatMap((doc) => {
        try {
          return evaluate(parsed!.filter, doc);
        } catch (err) {
          throw new Error(`${example}: ${(err as Error).message}`, { cause: err });
        }
      });
      // A select may rightly find nothing; anything else must find something.
      if (!parsed!.filter.startsWith('.[] | select')) expect(results.filter((r) => r !== null && r !== undefined), example).not.toHaveLength(0);
      if (hasJq) execFileSync('jq', ['-e', parsed!.filter.startsWith('.[] | select') ? 'true' : parsed!.filter], { input: run.stdout });
    }
  });
});
