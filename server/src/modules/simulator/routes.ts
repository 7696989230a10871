// The simulator's HTTP controls (DESIGN §5), mounted only with SIMULATOR=1. They answer an admin of
// the connection's company or the super-admin; another company's connection is ERR_NO_WAPP_FOUND.
import {
  AppError,
  simulatorAckSchema,
  simulatorBurstSchema,
  simulatorDropSchema,
  simulatorEditSchema,
  simulatorFaultsSchema,
  simulatorMessageSchema,
  simulatorNumberSchema,
  simulatorOutboxQuerySchema,
  simulatorRevokeSchema,
  simulatorScanSchema,
  type SimulatorFaults,
} from '@zapdesk/sync';
import { Hono, type Context } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAdmin, requireAuth } from '../../auth/middleware.ts';
import type { Ack } from '../../channels/types.ts';
import { tenant } from '../../db/tenant.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';

export function simulatorRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  // Each control acts where the connection's session runs, on whichever instance (channels/simulator/controls.ts).
  const network = deps.sessions.simulatorControls;

  /** The connection must be the actor's company's (any company's for the super-admin). */
  const ownConnection = async (c: Context<AppEnv>, id: number) => {
    const actor = c.get('actor');
    // A session running here knows its company: no read (a burst of deliveries asks once a request).
    const running = deps.sessions.companyOf(id);
    if (running !== undefined && (actor.super || running === actor.companyId)) return { id, companyId: running, connectionId: id };
    // The super-admin drives any company's simulator, so only their lookup skips the company filter.
    const from = actor.super ? deps.db.selectFrom('whatsapps') : tenant(deps.db, actor.companyId).selectFrom('whatsapps');
    const row = await from.select(['whatsapps.id', 'whatsapps.companyId']).where('whatsapps.id', '=', id).executeTakeFirst();
    if (!row) throw new AppError('ERR_NO_WAPP_FOUND');
    return { id: row.id, companyId: row.companyId, connectionId: row.id };
  };

  return new Hono<AppEnv>()
    .post('/simulator/connections/:id/scan', auth, requireAdmin, async (c) => {
      const conn = await ownConnection(c, parseId(c, 'id', 'ERR_NO_WAPP_FOUND'));
      const { number } = await parseBody(c, simulatorScanSchema);
      const { status } = await network.scan(conn, number);
      return c.json({ id: conn.id, status });
    })
    .post('/simulator/connections/:id/drop', auth, requireAdmin, async (c) => {
      const conn = await ownConnection(c, parseId(c, 'id', 'ERR_NO_WAPP_FOUND'));
      const { cause, forMs } = await parseBody(c, simulatorDropSchema);
      const { status } = await network.drop(conn, cause, forMs);
      const back = cause === 'network' ? { forMs: forMs ?? deps.sessions.simulator.options.reconnectDelayMs } : {};
      return c.json({ id: conn.id, cause, ...back, status });
    })
    // The faults belong to the simulated phone: they need no started session and outlive a drop.
    .post('/simulator/connections/:id/faults', auth, requireAdmin, async (c) => {
      const conn = await ownConnection(c, parseId(c, 'id', 'ERR_NO_WAPP_FOUND'));
      const changes = await parseBody(c, simulatorFaultsSchema);
      const faults: SimulatorFaults = { id: conn.id, ...(await network.setFaults(conn, changes)) };
      return c.json(faults);
    })
    // A burst on one connection: the messages arrive together and are stored in the same batches.
    .post('/simulator/connections/:id/messages', auth, requireAdmin, async (c) => {
      const conn = await ownConnection(c, parseId(c, 'id', 'ERR_NO_WAPP_FOUND'));
      const { messages } = await parseBody(c, simulatorBurstSchema);
      return c.json(await network.deliverBurst(conn, messages));
    })
    .post('/simulator/messages', auth, requireAdmin, async (c) => {
      const { connectionId, ...input } = await parseBody(c, simulatorMessageSchema);
      return c.json(await network.deliver(await ownConnection(c, connectionId), input));
    })
    // The contact changes a message it sent: the platform marks it edited (new text) or deleted.
    .post('/simulator/edits', auth, requireAdmin, async (c) => {
      const { connectionId, messageId, body } = await parseBody(c, simulatorEditSchema);
      return c.json(await network.change(await ownConnection(c, connectionId), messageId, body));
    })
    .post('/simulator/revokes', auth, requireAdmin, async (c) => {
      const { connectionId, messageId } = await parseBody(c, simulatorRevokeSchema);
      return c.json(await network.change(await ownConnection(c, connectionId), messageId));
    })
    .get('/simulator/outbox', auth, requireAdmin, async (c) => {
      const { connectionId, to } = parseQuery(c, simulatorOutboxQuerySchema);
      return c.json(await network.outbox(await ownConnection(c, connectionId), to));
    })
    .post('/simulator/acks', auth, requireAdmin, async (c) => {
      const { connectionId, messageId, ack } = await parseBody(c, simulatorAckSchema);
      return c.json(await network.ack(await ownConnection(c, connectionId), messageId, ack as Ack));
    })
    .post('/simulator/numbers', auth, requireAdmin, async (c) => {
      const { connectionId, number, exists } = await parseBody(c, simulatorNumberSchema);
      await network.setNumberExists(await ownConnection(c, connectionId), number, exists);
      return c.json({ connectionId, number, exists });
    });
}
