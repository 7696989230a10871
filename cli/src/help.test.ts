// --help text and exit codes, with the program run in-process on fake streams.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli.ts';
import { commandTree, invokedName } from './commands/index.ts';

async function run(args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  const code = await runCli(args, { stdout, stderr, stdin: new PassThrough(), env: { XDG_CONFIG_HOME: '/nonexistent-zapdesk' } });
  return { code, stdout: out, stderr: err };
}

describe('--help', () => {
  it('lists every command group with what it is for', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    for (const name of ['login', 'logout', 'whoami', 'companies', 'plans', 'users', 'helps', 'connections', 'contacts', 'tickets', 'sim']) expect(stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
  });

  it('gives every command its flags from the zod schema and its examples', async () => {
    for (const [group, lazy] of Object.entries(commandTree)) {
      const entry = await lazy.load();
      const subs = 'commands' in entry ? Object.keys(entry.commands).map((s) => [group, s]) : [[group]];
      for (const path of subs) {
        const { code, stdout } = await run([...path, '--help']);
        expect(code, path.join(' ')).toBe(0);
        expect(stdout, path.join(' ')).toContain(`Usage: zapdesk ${path.join(' ')}`);
        expect(stdout, path.join(' ')).toMatch(/\nExamples:\n {2}\$ .*zapdesk /);
      }
    }
  });

  it('lists each command with the description its own file gives (the list loads none of them)', async () => {
    const { stdout } = await run(['--help']);
    for (const [name, lazy] of Object.entries(commandTree)) {
      expect((await lazy.load()).description, name).toBe(lazy.description);
      expect(stdout.replace(/\s+/g, ' '), name).toContain(`${name} ${lazy.description}`.replace(/\s+/g, ' ').slice(0, 60));
    }
  });

  it('finds the invoked command past global flags and `help`', async () => {
    expect(invokedName(['--lang', 'pt', 'contacts', 'import', 'x.csv'])).toBe('contacts');
    expect(invokedName(['help', 'plans'])).toBe('plans');
    const { code, stdout } = await run(['help', 'contacts']);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: zapdesk contacts');
    expect(stdout).toMatch(/^ {2}import /m);
  });

  it('describes plan flags from the schema, one line each, --no-… named in the text', async () => {
    const { stdout } = await run(['plans', 'create', '--help']);
    expect(stdout).toContain('--from-file <file>');
    expect(stdout).toMatch(/--users <users> +most users a company may have/);
    expect(stdout).toMatch(/--kanban +kanban; on by default in a new plan\s+\(--no-kanban\s+turns it off\)/);
    expect(stdout).not.toMatch(/^\s+--no-kanban/m);
    expect(stdout).toContain('--json');
  });

  it('a group without a subcommand is a usage error', async () => {
    const { code, stderr } = await run(['plans']);
    expect(code).toBe(2);
    expect(stderr).toContain('Usage: zapdesk plans [options] [command]');
  });
});
