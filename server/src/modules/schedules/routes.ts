// Schedules over REST (spec/02 §7) with their image; a write is one transaction opened here
// (db/write.ts), and the files it stores or drops follow its outcome (service.ts).
import { SCHEDULE_MEDIA_MAX_BYTES, scheduleCreateSchema, scheduleListQuerySchema, scheduleUpdateSchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAuth } from '../../auth/middleware.ts';
import { requirePlan } from '../../auth/plan-gate.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import { sendAttachment } from '../media/attachments.ts';
import { assertImage, limitUpload, readUpload } from '../media/uploads.ts';
import { toScheduleDto } from './dto.ts';
import { createSchedule, deleteSchedule, findSchedulesPage, getChangeableSchedule, getScheduleRow, setScheduleMedia, updateSchedule } from './service.ts';

export function schedulesRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  const plan = requirePlan(deps, 'schedules');
  return new Hono<AppEnv>()
    .on('GET', ['/schedules', '/schedules/'], auth, plan, async (c) => {
      const query = parseQuery(c, scheduleListQuerySchema);
      return c.json(await findSchedulesPage(deps.db, c.get('actor'), query));
    })
    .get('/schedules/:id', auth, plan, async (c) => {
      const actor = c.get('actor');
      return c.json(await toScheduleDto(deps.db, actor.companyId, await getScheduleRow(deps.db, actor, parseId(c, 'id'))));
    })
    .on('POST', ['/schedules', '/schedules/'], auth, plan, async (c) => {
      const actor = c.get('actor');
      const input = await parseBody(c, scheduleCreateSchema);
      return c.json(await write(deps, (tx) => createSchedule(tx, actor, input)), 201);
    })
    .put('/schedules/:id', auth, plan, async (c) => {
      const actor = c.get('actor');
      const id = parseId(c, 'id');
      const input = await parseBody(c, scheduleUpdateSchema);
      return c.json(await write(deps, (tx) => updateSchedule(tx, actor, id, input)));
    })
    .delete('/schedules/:id', auth, plan, async (c) => {
      const actor = c.get('actor');
      const id = parseId(c, 'id');
      await write(deps, (tx) => deleteSchedule(tx, actor, id));
      return c.json({ message: 'Schedule deleted' });
    })
    .get('/schedules/:id/media', auth, plan, async (c) => {
      const row = await getScheduleRow(deps.db, c.get('actor'), parseId(c, 'id'));
      return sendAttachment(deps.config.mediaDir, row.mediaPath, row.mediaName);
    })
    .post('/schedules/:id/media-upload', auth, plan, limitUpload(SCHEDULE_MEDIA_MAX_BYTES), async (c) => {
      const actor = c.get('actor');
      const id = parseId(c, 'id');
      // Refused before the body is read: a 404 or a sent schedule does not wait for the upload.
      await getChangeableSchedule(deps.db, actor, id);
      const { file } = await readUpload(c, SCHEDULE_MEDIA_MAX_BYTES);
      assertImage(file);
      return c.json(await write(deps, (tx) => setScheduleMedia(tx, actor, id, file)));
    })
    .delete('/schedules/:id/media-upload', auth, plan, async (c) => {
      const id = parseId(c, 'id');
      return c.json(await write(deps, (tx) => setScheduleMedia(tx, c.get('actor'), id, null)));
    });
}
