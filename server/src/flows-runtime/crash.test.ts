// A flow's wait across a crash (DESIGN §13), with the product as a real process: a phrase starts a
// flow that waits 3 s on an interval; the process is killed with SIGKILL during the wait and started
// again on the same data; the step after the wait is sent exactly once, after the restart.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPostgresDatabase, DIALECTS } from '../../test/harness.ts';
import { demoAdmin } from '../../test/demo-admin.ts';
import { startServerProcess, type ServerProcess } from '../../test/process.ts';
import { waitFor } from '../channels/testing.ts';
import { openDatabase } from '../db/database.ts';

const WAIT = 'wait00000000000000000000000001';
const AFTER = 'after0000000000000000000000001';

describe.each(DIALECTS)('flow wait across a crash on %s', (dialect) => {
  it('SIGKILL during an interval: the next step fires once after the restart', { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'zapdesk-flow-crash-'));
    const pg = dialect === 'postgres' ? await createPostgresDatabase(process.env.TEST_POSTGRES_URL!) : undefined;
    const databaseUrl = pg?.url;
    let server: ServerProcess | undefined = await startServerProcess({ dataDir, databaseUrl });
    const { db } = openDatabase(databaseUrl ?? path.join(dataDir, 'zapdesk.db'));
    try {
      const { login, call } = demoAdmin();
      await login(server);
      const connectionId = ((await call(server, 'GET', '/whatsapp')) as { id: number }[])[0]!.id;
      const flow = await call(server, 'POST', '/flowbuilder', { name: 'Espera' });
      const edge = (source: string, target: string) => ({ source, target, sourceHandle: null, type: 'buttonedge' });
      await call(server, 'POST', '/flowbuilder/flow', {
        idFlow: flow.id,
        nodes: [
          { id: '1', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Inicio do fluxo' } },
          { id: WAIT, type: 'interval', position: { x: 1, y: 0 }, data: { sec: 3 } },
          { id: AFTER, type: 'message', position: { x: 2, y: 0 }, data: { label: 'Depois da espera' } },
        ],
        connections: [edge('1', WAIT), edge(WAIT, AFTER)],
      });
      await call(server, 'POST', '/flowcampaign', { name: 'Espera', flowId: flow.id, whatsappId: connectionId, phrase: 'espera' });
      const from = '5511977770001';
      await call(server, 'POST', '/simulator/messages', { connectionId, from, body: 'Espera' });
      await waitFor(async () => db.selectFrom('flowRuns').select(['status', 'nodeId']).executeTakeFirst(), (run) => run?.nodeId === WAIT, 10_000);
      await server.kill('SIGKILL');
      const afterSent = async (s: ServerProcess) => ((await call(s, 'GET', `/simulator/outbox?connectionId=${connectionId}&to=${from}`)) as { body: string }[]).filter((m) => m.body === 'Depois da espera').length;

      server = await startServerProcess({ dataDir, databaseUrl });
      await login(server);
      const s = server;
      await waitFor(async () => afterSent(s), (n) => n >= 1, 30_000);
      // A few more passes of the job: still once.
      await new Promise((r) => setTimeout(r, 2_500));
      expect(await afterSent(s)).toBe(1);
      const run = await db.selectFrom('flowRuns').select(['status', 'endReason']).executeTakeFirstOrThrow();
      expect(run).toMatchObject({ status: 'finished', endReason: 'completed' });
      expect((await db.selectFrom('flowTimers').select('status').execute()).map((x) => x.status)).toEqual(['fired']);
    } finally {
      await db.destroy();
      await server?.kill('SIGTERM');
      await pg?.drop();
    }
  });
});
