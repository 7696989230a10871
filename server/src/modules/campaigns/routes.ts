// Campaigns and campaign settings over REST (spec/03 §7). Company admins (and the super-admin) only:
// campaigns are administration (spec/03 §1); delete is gated by contacts-page:deleteContact as the
// spec says (§2, §6), and every route by the plan flag useCampaigns on the server.
import { CAMPAIGN_MEDIA_MAX_BYTES, campaignCreateSchema, campaignListQuerySchema, campaignSettingsInputSchema, campaignUpdateSchema, listQuerySchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAdmin, requireAuth, requirePermission } from '../../auth/middleware.ts';
import { requirePlan } from '../../auth/plan-gate.ts';
import { inSlices } from '../../db/slices.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import { sendAttachment } from '../media/attachments.ts';
import { classifyUpload } from '../media/storage.ts';
import { assertImageIfNamedOne, assertNotDangerous, limitUpload, readUpload } from '../media/uploads.ts';
import { toCampaignDto } from './dto.ts';
import { getCampaignReport } from './report.ts';
import { assertRestartable, beginCampaignDelete, cancelCampaign, createCampaign, deleteCampaign, emptyCampaignSlice, findCampaignsPage, getCampaignRow, restartCampaign, setCampaignMedia, updateCampaign } from './service.ts';
import { materializeInSlices } from './dispatch/recipients.ts';
import { findCampaignSettingRows, saveCampaignSettings } from './settings.ts';

export function campaignsRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  const plan = requirePlan(deps, 'campaigns');
  return new Hono<AppEnv>()
    .on('GET', ['/campaigns', '/campaigns/'], auth, requireAdmin, plan, async (c) => {
      const query = parseQuery(c, campaignListQuerySchema);
      return c.json(await findCampaignsPage(deps.db, c.get('actor').companyId, query));
    })
    .get('/campaigns/:id', auth, requireAdmin, plan, async (c) => {
      const { companyId } = c.get('actor');
      return c.json(await toCampaignDto(deps.db, companyId, await getCampaignRow(deps.db, companyId, parseId(c, 'id'))));
    })
    .get('/campaigns/:id/report', auth, requireAdmin, plan, async (c) => {
      const { pageNumber } = parseQuery(c, listQuerySchema);
      return c.json(await getCampaignReport(deps.db, c.get('actor').companyId, parseId(c, 'id'), pageNumber));
    })
    .on('POST', ['/campaigns', '/campaigns/'], auth, requireAdmin, plan, async (c) => {
      const actor = c.get('actor');
      const input = await parseBody(c, campaignCreateSchema);
      return c.json(await write(deps, (tx) => createCampaign(tx, actor, input)), 201);
    })
    .put('/campaigns/:id', auth, requireAdmin, plan, async (c) => {
      const actor = c.get('actor');
      const id = parseId(c, 'id');
      const input = await parseBody(c, campaignUpdateSchema);
      return c.json(await write(deps, (tx) => updateCampaign(tx, actor, id, input)));
    })
    .delete('/campaigns/:id', auth, requireAdmin, requirePermission('contacts-page:deleteContact'), plan, async (c) => {
      const actor = c.get('actor');
      const id = parseId(c, 'id');
      // Its recipients first, a slice per write (db/slices.ts), then the campaign in a write of its own.
      await write(deps, (tx) => beginCampaignDelete(tx, actor.companyId, id));
      await inSlices(deps, (tx, limit) => emptyCampaignSlice(tx, actor.companyId, id, limit));
      await write(deps, (tx) => deleteCampaign(tx, actor, id));
      return c.json({ message: 'Campaign deleted' });
    })
    .post('/campaigns/:id/cancel', auth, requireAdmin, plan, async (c) => {
      const actor = c.get('actor');
      const id = parseId(c, 'id');
      return c.json(await write(deps, (tx) => cancelCampaign(tx, actor, id)));
    })
    .post('/campaigns/:id/restart', auth, requireAdmin, plan, async (c) => {
      const actor = c.get('actor');
      const id = parseId(c, 'id');
      // Refused before anything is written; then its recipients a slice per write while it is still
      // cancelled, and the restart's write adds those that came meanwhile. The dispatch loop
      // (dispatch/job.ts) picks it up at its next pass, within a second.
      assertRestartable(await getCampaignRow(deps.db, actor.companyId, id));
      const now = new Date();
      const cursor = await materializeInSlices(deps, actor.companyId, id, 'CANCELADA', now);
      return c.json(await write(deps, (tx) => restartCampaign(tx, actor, id, now, cursor)));
    })
    .get('/campaigns/:id/media', auth, requireAdmin, plan, async (c) => {
      const row = await getCampaignRow(deps.db, c.get('actor').companyId, parseId(c, 'id'));
      return sendAttachment(deps.config.mediaDir, row.mediaPath, row.mediaName);
    })
    .post('/campaigns/:id/media-upload', auth, requireAdmin, plan, limitUpload(CAMPAIGN_MEDIA_MAX_BYTES), async (c) => {
      const actor = c.get('actor');
      const id = parseId(c, 'id');
      // Refused before the body is read: a 404 does not wait for the upload.
      await getCampaignRow(deps.db, actor.companyId, id);
      const { file } = await readUpload(c, CAMPAIGN_MEDIA_MAX_BYTES);
      // Images 2 MB, audio 5 MB, video 20 MB, documents as the chat takes them (spec/03 §5).
      classifyUpload({ fileName: file.name, mimeType: '', size: file.bytes.length });
      assertNotDangerous(file);
      assertImageIfNamedOne(file);
      return c.json(await write(deps, (tx) => setCampaignMedia(tx, actor, id, file)));
    })
    .delete('/campaigns/:id/media-upload', auth, requireAdmin, plan, async (c) => {
      const id = parseId(c, 'id');
      return c.json(await write(deps, (tx) => setCampaignMedia(tx, c.get('actor'), id, null)));
    })
    .get('/campaign-settings', auth, requireAdmin, plan, async (c) => c.json(await findCampaignSettingRows(deps.db, c.get('actor').companyId)))
    .post('/campaign-settings', auth, requireAdmin, plan, async (c) => {
      const { settings } = await parseBody(c, campaignSettingsInputSchema);
      const { companyId } = c.get('actor');
      return c.json(await write(deps, (tx) => saveCampaignSettings(tx, companyId, settings)));
    });
}
