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
    expect(run).toMatchObject({ code: 2, stderr: "error: option '--users': Must be a whole number (see zapdesk plans create --help)\n" });
  });

  it('a missing flag, a bad choice and a bad id exit 2', async () => {
    const missing = await zapdesk(['plans', 'create', '--name', 'Pro'], { home });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: option '--users': Required \(see zapdesk plans create --help\)\n$/);
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
