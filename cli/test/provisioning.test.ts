// A tenant with its plan provisioned from files, as a script would, with --json parsed back.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/src/server.ts';
import { login, startTestServer, tempConfigHome, zapdesk } from './helpers.ts';

let server: RunningServer;
let home: string;
beforeAll(async () => {
  server = await startTestServer();
  home = tempConfigHome();
  await login(server.apiUrl, home);
});
afterAll(() => server?.close());

const json = (run: { code: number | null; stdout: string; stderr: string }) => {
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
};

// Ten CLI processes in the first case: generous, for a busy 2-core machine.
describe('provisioning from a script', { timeout: 300_000 }, () => {
  it('creates a plan from YAML and a company from JSON with its first admin, who can then log in', async () => {
    const planFile = path.join(home, 'plan.yaml');
    writeFileSync(planFile, ['name: Starter', 'users: 3', 'connections: 1', 'queues: 2', 'value: "29,90"', 'kanban: false', 'useOpenAi: false', ''].join('\n'));
    const plan = json(await zapdesk(['plans', 'create', '--from-file', planFile, '--json'], { home }));
    expect(plan).toMatchObject({ name: 'Starter', users: 3, connections: 1, queues: 2, value: 29.9, useKanban: false, useOpenAi: false, useCampaigns: true });

    const companyFile = path.join(home, 'acme.json');
    writeFileSync(companyFile, JSON.stringify({ name: 'Acme Ltda', email: 'ops@acme.test', phone: '(11) 98765-4321', dueDate: '2030-01-31', recurrence: 'TRIMESTRAL', adminName: 'Ana Admin' }));
    const company = json(
      await zapdesk(['companies', 'create', '--from-file', companyFile, '--plan-id', String(plan.id), '--admin-password-stdin', '--json'], { home, input: 'Acme-Pass-1\n' }),
    );
    expect(company).toMatchObject({ name: 'Acme Ltda', phone: '11987654321', planId: plan.id, plan: { name: 'Starter' }, recurrence: 'TRIMESTRAL', status: true });
    expect(company.dueDate).toBe('2030-01-31T23:59:59.999Z');

    // Flags override the file; the result reads back the same through get and list. (An update has
    // no first admin: the creation file's adminName would be refused as a field update does not know.)
    const updateFile = path.join(home, 'acme-update.json');
    writeFileSync(updateFile, JSON.stringify({ name: 'Acme Ltda', recurrence: 'TRIMESTRAL' }));
    const updated = json(await zapdesk(['companies', 'update', String(company.id), '--from-file', updateFile, '--name', 'Acme SA', '--json'], { home }));
    expect(updated).toMatchObject({ id: company.id, name: 'Acme SA', recurrence: 'TRIMESTRAL' });
    expect(json(await zapdesk(['companies', 'get', String(company.id), '--json'], { home }))).toMatchObject({ id: company.id, name: 'Acme SA' });
    const list = json(await zapdesk(['companies', 'list', '--search', 'acme', '--json'], { home }));
    expect(list.map((c: { id: number }) => c.id)).toEqual([company.id]);

    const renewed = json(await zapdesk(['companies', 'renew', String(company.id), '--json'], { home }));
    expect(renewed.dueDate).toBe('2030-04-30T23:59:59.999Z');

    const users = json(await zapdesk(['users', 'list', '--company-id', String(company.id), '--json'], { home }));
    expect(users).toEqual([expect.objectContaining({ name: 'Ana Admin', email: 'ops@acme.test', profile: 'admin' })]);

    const adminHome = tempConfigHome();
    await login(server.apiUrl, adminHome, { email: 'ops@acme.test', password: 'Acme-Pass-1' });
    const me = json(await zapdesk(['whoami', '--json'], { home: adminHome }));
    expect(me).toMatchObject({ email: 'ops@acme.test', super: false, company: { id: company.id, name: 'Acme SA' } });
  });

  it('shows a table to a pipe in plain aligned columns', async () => {
    const run = await zapdesk(['plans', 'list'], { home });
    expect(run.code).toBe(0);
    const [header, first] = run.stdout.split('\n');
    expect(header).toMatch(/^ID {2}NAME +USERS {2}CONNECTIONS {2}QUEUES {2}VALUE +PUBLIC {2}FEATURES$/);
    expect(first).toMatch(/^1 {3}Platform /);
  });

  it('a file with bad fields exits 1 with the translated validation message and the fields', async () => {
    const bad = path.join(home, 'bad-plan.yaml');
    writeFileSync(bad, 'name: Broken\nusers: many\nconnections: 1\nqueues: 1\nvalue: 10\n');
    const en = await zapdesk(['plans', 'create', '--from-file', bad], { home });
    expect(en).toMatchObject({ code: 1, stdout: '', stderr: 'error: Some fields are invalid. (users: Must be a whole number)\n' });
    const pt = await zapdesk(['plans', 'create', '--from-file', bad, '--lang', 'pt'], { home });
    expect(pt.stderr).toBe('error: Alguns campos são inválidos. (users: Must be a whole number)\n');
  });

  it('refuses a file with a field the command does not know, naming the nearest one, and creates nothing', async () => {
    const typo = path.join(home, 'typo-plan.yaml');
    writeFileSync(typo, 'name: Typo\nusers: 3\nconections: 1\nqueues: 1\nvalue: 10\ncolour: blue\n');
    const run = await zapdesk(['plans', 'create', '--from-file', typo], { home });
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: 'error: Some fields are invalid. (conections: unknown field (did you mean connections?); colour: unknown field)\n' });
    const plans = JSON.parse((await zapdesk(['plans', 'list', '--json'], { home })).stdout) as { name: string }[];
    expect(plans.map((p) => p.name)).not.toContain('Typo');
  });

  it('a catalogue error from the server exits 1 with its message', async () => {
    const run = await zapdesk(['companies', 'get', '999', '--lang', 'pt'], { home });
    expect(run).toMatchObject({ code: 1, stderr: 'error: Nenhuma empresa encontrada com este ID.\n' });
  });
});
