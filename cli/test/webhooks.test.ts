// `zapdesk webhooks` (issue 18) as a process against the real server: create (secret shown once),
// list, update, send a test to a local receiver and read it in the log, refuse bad input, delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/src/server.ts';
import { startReceiver, verifySignature } from '../../server/test/webhook-receiver.ts';
import { json, login, startTestServer, tempConfigHome, zapdesk } from './helpers.ts';

let server: RunningServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let home: string;
beforeAll(async () => {
  server = await startTestServer();
  receiver = await startReceiver();
  home = tempConfigHome();
  await login(server.apiUrl, home);
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await server?.close();
});

describe('zapdesk webhooks', { timeout: 120_000 }, () => {
  it('creates, lists, tests, reads the log, updates and deletes', async () => {
    const shown = await zapdesk(['webhooks', 'create', '--name', 'CRM', '--url', receiver.url, '--events', 'ticket.created, contact.created'], { home });
    expect(shown.code, shown.stderr).toBe(0);
    const secret = /secret\s+(whsec_\S+)\s+\(shown once/.exec(shown.stdout)?.[1];
    expect(secret).toBeDefined();
    const id = Number(/Webhook (\d+)/.exec(shown.stdout)?.[1]);

    const listed = json(await zapdesk(['webhooks', 'list', '--json'], { home }));
    expect(listed).toEqual([expect.objectContaining({ id, name: 'CRM', url: receiver.url, events: ['ticket.created', 'contact.created'], enabled: true, secret: `••••${secret!.slice(-4)}` })]);
    const table = await zapdesk(['webhooks', 'list'], { home });
    expect(table.stdout).toMatch(new RegExp(`${id}\\s+CRM\\s+${receiver.url.replace(/[/.]/g, '\\$&')}\\s+ticket.created, contact.created\\s+yes`));

    const tested = await zapdesk(['webhooks', 'test', String(id), '--wait'], { home });
    expect(tested.code, tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/^Test delivery \d+ delivered: HTTP 200 in \d+ ms\.$/m);
    expect(receiver.received.map((r) => r.event)).toEqual(['webhook.test']);
    expect(verifySignature(secret!, receiver.received[0]!)).toBe(true);

    const log = json(await zapdesk(['webhooks', 'deliveries', String(id), '--json'], { home }));
    expect(log).toEqual([expect.objectContaining({ event: 'webhook.test', state: 'done', attempts: 1, responseStatus: 200, eventId: receiver.received[0]!.delivery })]);
    const logTable = await zapdesk(['webhooks', 'deliveries', String(id)], { home });
    expect(logTable.stdout).toMatch(/webhook\.test\s+done\s+1\s+200/);

    const updated = json(await zapdesk(['webhooks', 'update', String(id), '--disable', '--events', 'message.received', '--json'], { home }));
    expect(updated).toMatchObject({ id, enabled: false, events: ['message.received'] });
    const rotated = json(await zapdesk(['webhooks', 'update', String(id), '--rotate-secret', '--json'], { home }));
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(secret);

    const deleted = await zapdesk(['webhooks', 'delete', String(id), '--yes'], { home });
    expect(deleted).toMatchObject({ code: 0, stdout: `Deleted webhook ${id}.\n` });
    expect(json(await zapdesk(['webhooks', 'list', '--json'], { home }))).toEqual([]);
  });

  it('refuses bad input with one line and changes nothing', async () => {
    const bad = await zapdesk(['webhooks', 'create', '--name', 'Bad', '--url', 'ftp://example.com', '--events', 'ticket.exploded'], { home });
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/url|events/i);
    const nothing = await zapdesk(['webhooks', 'update', '1'], { home });
    expect(nothing.code).toBe(2);
    const missing = await zapdesk(['webhooks', 'deliveries', '999'], { home });
    expect(missing.code).toBe(1);
    expect(json(await zapdesk(['webhooks', 'list', '--json'], { home }))).toEqual([]);
  });
});
