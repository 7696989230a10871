// Deleting asks first: on a terminal the person answers y or n; in a script (no terminal) nothing is
// deleted without --yes. Companies, users and contacts, with the CLI as a process against the real
// server, and in a pseudo-terminal for the question.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/src/server.ts';
import { inPty, json, login, startTestServer, tempConfigHome, zapdesk } from './helpers.ts';

let server: RunningServer;
let home: string;
beforeAll(async () => {
  server = await startTestServer();
  home = tempConfigHome();
  await login(server.apiUrl, home);
});
afterAll(() => server?.close());

const exists = async (args: string[]) => (await zapdesk([...args, '--json'], { home })).code === 0;

async function createCompany(name: string): Promise<number> {
  return json(await zapdesk(['companies', 'create', '--name', name, '--email', `${name.toLowerCase().replace(/\W/g, '')}@example.test`, '--plan-id', '1', '--json'], { home })).id;
}

describe('deleting', { timeout: 180_000 }, () => {
  it('in a script: refuses without --yes (exit 2, nothing deleted), deletes with it', async () => {
    const company = await createCompany('Kept Ltda');
    const user = json(await zapdesk(['users', 'create', '--name', 'Kept User', '--email', 'kept@example.test', '--profile', 'user', '--password-stdin', '--json'], { home, input: 'Kept-Pass-1' })).id;
    const file = path.join(tempConfigHome(), 'two.csv');
    writeFileSync(file, 'name,number,email\nKept Contact,5511955551234,kc@example.test\n');
    expect(json(await zapdesk(['contacts', 'import', file, '--json'], { home }))).toMatchObject({ imported: 1 });
    const contact = json(await zapdesk(['contacts', 'list', '--search', 'Kept', '--json'], { home })).contacts[0].id;

    for (const [noun, group, id] of [['company', 'companies', company], ['user', 'users', user], ['contact', 'contacts', contact]] as const) {
      const refused = await zapdesk([group, 'delete', String(id)], { home });
      expect(refused, group).toMatchObject({
        code: 2,
        stdout: '',
        stderr: `error: not deleting ${noun} ${id} without --yes: there is no terminal to ask for confirmation (add --yes in scripts) (see zapdesk ${group} delete --help)\n`,
      });
      expect(await exists([group, 'get', String(id)]), group).toBe(true);
    }
    for (const [noun, group, id] of [['contact', 'contacts', contact], ['user', 'users', user], ['company', 'companies', company]] as const) {
      expect(await zapdesk([group, 'delete', String(id), '--yes'], { home }), group).toMatchObject({ code: 0, stdout: `Deleted ${noun} ${id}.\n` });
      expect(await exists([group, 'get', String(id)]), group).toBe(false);
    }
  });

  it('on a terminal: asks, naming what goes; n keeps it, y deletes it', async () => {
    const id = await createCompany('Doomed Ltda');
    const no = inPty(['companies', 'delete', String(id)], { home });
    await no.waitFor(new RegExp(`Delete company ${id} \\(Doomed Ltda\\)\\? This cannot be undone\\. \\[y/N\\] `));
    no.write('n\r');
    expect(await no.exited).toBe(1);
    expect(no.output()).toContain(`error: cancelled: company ${id} (Doomed Ltda) was not deleted`);
    expect(await exists(['companies', 'get', String(id)])).toBe(true);

    const yes = inPty(['companies', 'delete', String(id)], { home });
    await yes.waitFor(/\[y\/N\] /);
    yes.write('y\r');
    expect(await yes.exited).toBe(0);
    expect(yes.output()).toContain(`Deleted company ${id}.`);
    expect(await exists(['companies', 'get', String(id)])).toBe(false);
  });
});
