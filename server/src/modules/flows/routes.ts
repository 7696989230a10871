// Flows and phrase campaigns over REST (spec/03 §7), plus the agent's stop of a ticket's flow.
// Company admins (and the super-admin) only, like the rest of administration (spec/03 §1, §6: the
// flow pages are gated by the campaign flag); every flowbuilder and flowcampaign route checks the
// plan flag useCampaigns on the server. Another company's ids answer 404.
import { flowCreateSchema, flowDuplicateSchema, flowRenameSchema, flowSaveSchema, phraseCampaignCreateSchema, phraseCampaignUpdateSchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAdmin, requireAuth } from '../../auth/middleware.ts';
import { requirePlan } from '../../auth/plan-gate.ts';
import { inSlices } from '../../db/slices.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import { stopTicketFlow } from '../../flows-runtime/runtime.ts';
import { sendAttachment } from '../media/attachments.ts';
import { toTicketDto } from '../tickets/dto.ts';
import { getVisibleTicket } from '../tickets/service.ts';
import { flowMediaPath, flowUploadLimit, readFlowUploads, storeFlowUploads, type FlowUploadRoute } from './media.ts';
import { createPhraseCampaign, deletePhraseCampaign, findPhraseCampaigns, getPhraseCampaign, updatePhraseCampaign } from './phrase-campaigns.ts';
import { getTicketFlow } from './ticket-flow.ts';
import { clearEndedRunsSlice, createFlow, deleteFlow, duplicateFlow, findFlows, getFlowWithGraph, renameFlow, saveFlowGraph } from './service.ts';

/** PUT /flowbuilder: a rename that may also switch the flow on or off. */
export const flowUpdateSchema = flowRenameSchema.extend({ active: z.boolean().optional() });
export const searchSchema = z.object({ searchParam: z.string().max(200).optional() });
const FILE_NAME = /^[A-Za-z0-9._-]{1,200}$/;

export function flowsRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  const plan = requirePlan(deps, 'campaigns');
  const admin = [auth, requireAdmin, plan] as const;

  const upload = (route: FlowUploadRoute) =>
    new Hono<AppEnv>().post(`/flowbuilder/${route}`, ...admin, flowUploadLimit, async (c) => {
      const files = await readFlowUploads(c, route);
      const names = await storeFlowUploads(deps.config.mediaDir, c.get('actor').companyId, files);
      // spec/03 §7: the stored name (img, audio, video) or the file names (content).
      return c.json(route === 'content' ? names : names[0]!);
    });

  return new Hono<AppEnv>()
    .get('/flowbuilder', ...admin, async (c) => {
      const { searchParam } = parseQuery(c, searchSchema);
      return c.json(await findFlows(deps.db, c.get('actor').companyId, searchParam));
    })
    .post('/flowbuilder', ...admin, async (c) => {
      const actor = c.get('actor');
      const input = await parseBody(c, flowCreateSchema);
      return c.json(await write(deps, (tx) => createFlow(tx, actor, input)), 201);
    })
    .put('/flowbuilder', ...admin, async (c) => {
      const actor = c.get('actor');
      const input = await parseBody(c, flowUpdateSchema);
      return c.json(await write(deps, (tx) => renameFlow(tx, actor, input)));
    })
    .post('/flowbuilder/duplicate', ...admin, async (c) => {
      const actor = c.get('actor');
      const { flowId } = await parseBody(c, flowDuplicateSchema);
      return c.json(await write(deps, (tx) => duplicateFlow(tx, actor, flowId)), 201);
    })
    .get('/flowbuilder/flow/:id', ...admin, async (c) => c.json(await getFlowWithGraph(deps.db, c.get('actor').companyId, parseId(c, 'id'))))
    .post('/flowbuilder/flow', ...admin, async (c) => {
      const actor = c.get('actor');
      const input = await parseBody(c, flowSaveSchema);
      return c.json(await write(deps, (tx) => saveFlowGraph(tx, actor, input, deps.secrets)));
    })
    .route('/', upload('img'))
    .route('/', upload('audio'))
    .route('/', upload('video'))
    .route('/', upload('content'))
    // The editor's preview of a stored file (a node's url).
    .get('/flowbuilder/media/:name', ...admin, async (c) => {
      const name = c.req.param('name');
      const rel = FILE_NAME.test(name) ? flowMediaPath(c.get('actor').companyId, name) : undefined;
      return sendAttachment(deps.config.mediaDir, rel ?? null, null);
    })
    .delete('/flowbuilder/:id', ...admin, async (c) => {
      const actor = c.get('actor');
      const id = parseId(c, 'id');
      await inSlices(deps, (tx, limit) => clearEndedRunsSlice(tx, actor.companyId, id, limit));
      await write(deps, (tx) => deleteFlow(tx, actor, id));
      return c.json({ message: 'Flow deleted' });
    })
    .get('/flowcampaign', ...admin, async (c) => c.json(await findPhraseCampaigns(deps.db, c.get('actor').companyId)))
    .get('/flowcampaign/:id', ...admin, async (c) => c.json(await getPhraseCampaign(deps.db, c.get('actor').companyId, parseId(c, 'id'))))
    .post('/flowcampaign', ...admin, async (c) => {
      const actor = c.get('actor');
      const input = await parseBody(c, phraseCampaignCreateSchema);
      return c.json(await write(deps, (tx) => createPhraseCampaign(tx, actor, input)), 201);
    })
    .put('/flowcampaign', ...admin, async (c) => {
      const actor = c.get('actor');
      const input = await parseBody(c, phraseCampaignUpdateSchema);
      return c.json(await write(deps, (tx) => updatePhraseCampaign(tx, actor, input)));
    })
    .delete('/flowcampaign/:id', ...admin, async (c) => {
      const actor = c.get('actor');
      const id = parseId(c, 'id');
      await write(deps, (tx) => deletePhraseCampaign(tx, actor, id));
      return c.json({ message: 'Phrase campaign deleted' });
    })
    // The ticket's flow run with its answers, for anyone who may see the ticket (no plan gate, as the stop).
    .get('/tickets/:id/flow', auth, async (c) => {
      const actor = c.get('actor');
      const { row } = await getVisibleTicket(deps, actor, parseId(c, 'id', 'ERR_NO_TICKET_FOUND'));
      return c.json({ run: await getTicketFlow(deps, row.companyId, row.id) });
    })
    // An agent who may see the ticket stops its flow (no plan gate: a running flow must always be stoppable).
    .post('/tickets/:id/flow/stop', auth, async (c) => {
      const actor = c.get('actor');
      const { row } = await getVisibleTicket(deps, actor, parseId(c, 'id', 'ERR_NO_TICKET_FOUND'));
      const stopped = await write(deps, (tx) => stopTicketFlow(tx, row));
      const { row: after } = await getVisibleTicket(deps, actor, row.id);
      return c.json({ stopped, ticket: await toTicketDto(deps.db, after.companyId, after) });
    });
}

