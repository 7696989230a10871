// `sim edit` and `sim revoke` as a process against the real server: the simulated contact edits
// and deletes what it sent, and the ticket's messages show it (edited text, deleted mark).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/src/server.ts';
import { login, startTestServer, tempConfigHome, zapdesk } from './helpers.ts';

let server: RunningServer;
let home: string;
let connectionId: number;

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

beforeAll(async () => {
  server = await startTestServer({ simulator: true });
  home = tempConfigHome();
  await login(server.apiUrl, home);
  const added = await zapdesk(['connections', 'add', '--name', 'Sim', '--provider', 'simulator', '--json'], { home });
  connectionId = JSON.parse(added.stdout).id;
  await http('POST', `/whatsappsession/${connectionId}`);
  await http('POST', `/simulator/connections/${connectionId}/scan`, { number: '5511900000002' });
}, 60_000);
afterAll(async () => {
  await server?.close();
});

describe('zapdesk sim edit / revoke', () => {
  it('edits and deletes a message the contact sent; an unknown message is a one-line error', async () => {
    const to = String(connectionId);
    const sent = await zapdesk(['sim', 'send', '--from', '5511955551234', '--name', 'Cli Contact', '--to', to, 'Three boxes'], { home });
    expect(sent.code, sent.stderr).toBe(0);
    const first = /message (\S+)\)/.exec(sent.stdout)![1]!;
    const second = /message (\S+)\)/.exec((await zapdesk(['sim', 'send', '--from', '5511955551234', '--to', to, 'Secret'], { home })).stdout)![1]!;

    const edit = await zapdesk(['sim', 'edit', '--to', to, '--message', first, 'Four boxes'], { home });
    expect(edit.code, edit.stderr).toBe(0);
    expect(edit.stdout.trim()).toBe(`Edited message ${first}.`);
    const revoke = await zapdesk(['sim', 'revoke', '--to', to, '--message', second], { home });
    expect(revoke.code, revoke.stderr).toBe(0);
    expect(revoke.stdout.trim()).toBe(`Deleted message ${second} for everyone.`);

    const ticket = (await http('GET', '/tickets?showAll=true&status=pending')).tickets[0] as { id: number };
    const messages = (await http('GET', `/messages/${ticket.id}`)).messages as { wid: string; body: string; isEdited: boolean; isDeleted: boolean }[];
    expect(messages.find((m) => m.wid === first)).toMatchObject({ body: 'Four boxes', isEdited: true });
    expect(messages.find((m) => m.wid === second)).toMatchObject({ isDeleted: true });

    const unknown = await zapdesk(['sim', 'revoke', '--to', to, '--message', 'NOPE'], { home });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('flood sends N messages from M contacts, one a request or in bursts, each stored once', async () => {
    const to = String(connectionId);
    const one = await zapdesk(['sim', 'flood', '--to', to, '--messages', '6', '--contacts', '2', '--prefix', '5521700', '--json'], { home });
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ sent: 6, failed: 0, contacts: 2 });
    const burst = await zapdesk(['sim', 'flood', '--to', to, '--messages', '30', '--contacts', '4', '--prefix', '5521800', '--burst', '7', '--concurrency', '2'], { home });
    expect(burst.code, burst.stderr).toBe(0);
    expect(burst.stdout).toMatch(/^Sent 30 messages from 4 contacts in /);

    const tickets = (await http('GET', '/tickets?showAll=true&status=pending')).tickets as { id: number; contact: { number: string }; unreadMessages: number }[];
    const flooded = tickets.filter((t) => /^55218/.test(t.contact.number));
    expect(flooded).toHaveLength(4);
    // 30 messages over 4 contacts: 8, 8, 7 and 7, each stored once.
    expect(flooded.map((t) => t.unreadMessages).sort()).toEqual([7, 7, 8, 8]);
    expect(tickets.filter((t) => /^55217/.test(t.contact.number)).map((t) => t.unreadMessages)).toEqual([3, 3]);

    // Refused alike for every message (no such connection): one line, not thousands of failures.
    const nowhere = await zapdesk(['sim', 'flood', '--to', '999999', '--messages', '50000', '--concurrency', '4'], { home });
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr.trim().split('\n')).toEqual(['error: No WhatsApp connection found with this ID.']);

    const tooBig = await zapdesk(['sim', 'flood', '--to', to, '--burst', '501'], { home });
    expect(tooBig.code).toBe(2);
    expect(tooBig.stderr.trim()).toBe("error: --burst must be at most 500 (got '501') (see zapdesk sim flood --help)");
  });
});
