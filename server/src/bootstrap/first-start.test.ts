import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { startServer } from '../server.ts';
import { createMemoryLogger } from '../log.ts';

// The first start of a fresh clone, through the real server (SQLite file in a temp DATA_DIR).
describe('first start', () => {
  const boot = (env: Record<string, string>) => {
    const config = loadConfig({ PORT: '0', JWT_SECRET: 's', JWT_REFRESH_SECRET: 'r', ...env });
    return startServer(config, { log: createMemoryLogger(), web: false });
  };
  const login = async (apiUrl: string, email: string, password: string) => {
    const res = await fetch(`${apiUrl}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    return { status: res.status, body: (await res.json()) as { token: string; user: { super: boolean } } };
  };

  it('creates the super-admin and the demo company once; later starts only migrate', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'zapdesk-first-'));
    const env = { DATA_DIR: dataDir, ADMIN_EMAIL: 'root@example.test', ADMIN_PASSWORD: 'Root12345', DEMO_PASSWORD: 'Demo12345' };
    const first = await boot(env);
    try {
      expect(first.firstStart.superAdmin).toEqual({ email: 'root@example.test', password: 'Root12345', generated: false });
      expect(first.firstStart.demo?.users.map((u) => u.email)).toEqual(['admin@demo.zapdesk.local', 'bruno@demo.zapdesk.local', 'carla@demo.zapdesk.local']);
      const root = await login(first.apiUrl, 'root@example.test', 'Root12345');
      expect(root.status).toBe(200);
      expect(root.body.user.super).toBe(true);

      const admin = await login(first.apiUrl, 'admin@demo.zapdesk.local', 'Demo12345');
      expect(admin.status).toBe(200);
      const auth = { authorization: `Bearer ${admin.body.token}` };
      const queues = (await (await fetch(`${first.apiUrl}/queue`, { headers: auth })).json()) as { name: string }[];
      expect(queues.map((q) => q.name)).toEqual(['Sales', 'Support']);
      const [connection] = (await (await fetch(`${first.apiUrl}/whatsapp`, { headers: auth })).json()) as { status: string; isDefault: boolean }[];
      expect(connection).toMatchObject({ status: 'CONNECTED', isDefault: true });
      // The demo customers wrote through the simulator: three pending tickets, two already routed.
      const { tickets } = (await (await fetch(`${first.apiUrl}/tickets?status=pending&showAll=true`, { headers: auth })).json()) as {
        tickets: { contact: { name: string }; queue: { name: string } | null }[];
      };
      expect(tickets.map((t) => [t.contact.name, t.queue?.name ?? null]).sort()).toEqual([
        ['Julia Castro', null],
        ['Mariana Souza', 'Sales'],
        ['Pedro Lima', 'Support'],
      ]);
    } finally {
      await first.close();
    }

    const second = await boot(env);
    try {
      expect(second.firstStart).toEqual({});
      const users = await second.deps.db.selectFrom('users').select('email').execute();
      expect(users).toHaveLength(4);
    } finally {
      await second.close();
    }
  });

  it('with SEED_DEMO=0 creates only the platform, and prints a generated password', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'zapdesk-first-'));
    const running = await boot({ DATA_DIR: dataDir, SEED_DEMO: '0' });
    try {
      const admin = running.firstStart.superAdmin!;
      expect(admin).toMatchObject({ email: 'admin@zapdesk.local', generated: true });
      expect(admin.password.length).toBeGreaterThanOrEqual(12);
      expect(running.firstStart.demo).toBeUndefined();
      expect(running.deps.config.simulator).toBe(false);
      expect((await login(running.apiUrl, admin.email, admin.password)).status).toBe(200);
      expect(await running.deps.db.selectFrom('companies').select('name').execute()).toEqual([{ name: 'zapdesk' }]);
    } finally {
      await running.close();
    }
  });
});
