// Usage errors: exit 2 and one helpful line, before anything reaches a server.
import { describe, expect, it } from 'vitest';
import { tempConfigHome, zapdesk, zapdeskPiped } from './helpers.ts';

describe('bad command lines', { timeout: 120_000 }, () => {
  const home = tempConfigHome();

  it('an unknown option exits 2 and suggests the right one', async () => {
    const run = await zapdesk(['plans', 'create', '--nme', 'Pro'], { home });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe("error: unknown option '--nme'\n(Did you mean --name?)\n(add --help for usage and examples)\n");
  });

  it('a bad flag value exits 2 and names the flag', async () => {
    const run = await zapdesk(['plans', 'create', '--name', 'Pro', '--users', 'ten', '--connections', '1', '--queues', '1', '--value', '10'], { home });
    expect(run).toMatchObject({ code: 2, stderr: "error: --users: Must be a whole number (see zapdesk plans create --help)\n" });
  });

  it('a missing flag, a bad choice and a bad id exit 2', async () => {
    const missing = await zapdesk(['plans', 'create', '--name', 'Pro'], { home });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('error: --users is required (see zapdesk plans create --help)\n');
    const choice = await zapdesk(['companies', 'update', '1', '--recurrence', 'WEEKLY'], { home });
    expect(choice.code).toBe(2);
    expect(choice.stderr).toContain("error: option '--recurrence <recurrence>' argument 'WEEKLY' is invalid. Allowed choices are MENSAL, BIMESTRAL, TRIMESTRAL, SEMESTRAL, ANUAL.");
    const id = await zapdesk(['plans', 'get', 'abc'], { home });
    expect(id).toMatchObject({ code: 2, stderr: "error: the plan id must be a positive whole number, got 'abc' (see zapdesk plans get --help)\n" });
  });

  it('an unknown command exits 2; --help and --version exit 0', async () => {
    const unknown = await zapdesk(['plan', 'list'], { home });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("error: unknown command 'plan'\n(Did you mean plans?)");
    const help = await zapdesk(['--help'], { home });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: zapdesk [options] [command]');
    expect((await zapdesk(['--version'], { home })).stdout).toBe('0.1.0\n');
  });

  it('says in words which flag is wrong and how', async () => {
    expect(await zapdesk(['sim', 'send', '--from', '5511955550000', 'Oi'], { home })).toMatchObject({ code: 2, stderr: 'error: --to is required (see zapdesk sim send --help)\n' });
    expect(await zapdesk(['connections', 'pair', '3', '--timeout', '2'], { home })).toMatchObject({
      code: 2,
      stderr: "error: --timeout must be at least 5 (got '2') (see zapdesk connections pair --help)\n",
    });
    expect(await zapdesk(['users', 'create', '--name', 'A', '--email', 'a@b.test', '--profile', 'user'], { home })).toMatchObject({
      code: 2,
      stderr: "error: --name must be at least 2 characters long (got 'A') (see zapdesk users create --help)\n",
    });
    expect(await zapdesk(['contacts', 'list', '--date', 'yesterday'], { home })).toMatchObject({
      code: 2,
      stderr: "error: --date is not a valid day (YYYY-MM-DD) (got 'yesterday') (see zapdesk contacts list --help)\n",
    });
  });

  it('an unknown command asked for its --help says it does not exist (exit 2)', async () => {
    for (const args of [['nosuch', '--help'], ['help', 'nosuch'], ['plans', 'nosuch', '--help'], ['--lang', 'pt', 'plans', 'nosuch', '-h']]) {
      const run = await zapdesk(args, { home });
      expect(run, args.join(' ')).toMatchObject({ code: 2, stdout: '', stderr: "error: unknown command 'nosuch'\n(add --help for usage and examples)\n" });
    }
    const typo = await zapdesk(['plan', '--help'], { home });
    expect(typo).toMatchObject({ code: 2, stdout: '' });
    expect(typo.stderr).toContain("error: unknown command 'plan'\n(Did you mean plans?)");
    // Known commands still answer their help.
    expect(await zapdesk(['help', 'plans'], { home })).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: zapdesk plans') });
    expect(await zapdesk(['plans', 'list', '--help'], { home })).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: zapdesk plans list') });
  });

  it('refuses a language it does not speak (exit 2) and takes a locale name', async () => {
    expect(await zapdesk(['--lang', 'fr', 'plans', 'list'], { home })).toMatchObject({
      code: 2,
      stderr: "error: option '--lang <lang>' argument 'fr' is invalid. Use en, pt, es.\n(add --help for usage and examples)\n",
    });
    expect((await zapdesk(['plans', 'list', '--lang', 'english'], { home })).code).toBe(2);
    expect(await zapdesk(['--lang', 'pt_BR', '--version'], { home })).toMatchObject({ code: 0, stdout: '0.1.0\n' });
  });

  it('login without a terminal needs --email and --password-stdin', async () => {
    const run = await zapdesk(['login', '--url', 'http://127.0.0.1:9'], { home });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("error: option '--email <email>' is required when not on a terminal");
  });

  it('ends quietly with exit 0 when the reader of its output goes away (| head, | true)', async () => {
    // `true` reads nothing and exits at once: every write of the help meets a closed pipe.
    const gone = await zapdeskPiped(['--help'], 'true', { home });
    expect(gone).toMatchObject({ code: 0, stderr: '' });
    const head = await zapdeskPiped(['--help'], 'head -1', { home });
    expect(head).toMatchObject({ code: 0, stdout: 'Usage: zapdesk [options] [command]\n', stderr: '' });
    const sub = await zapdeskPiped(['contacts', 'import', '--help'], 'true', { home });
    expect(sub).toMatchObject({ code: 0, stderr: '' });
  });
});
