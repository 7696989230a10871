import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { AppError, SCHEDULE_MEDIA_MAX_BYTES, scheduleCreateSchema, scheduleListQuerySchema, scheduleUpdateSchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAuth, requirePlan } from '../../auth/middleware.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import { mimeOfPath, resolveMediaFile } from '../media/storage.ts';
import { assertImage, limitUpload, readUpload, removeMedia, storeMedia } from '../quick-messages/media.ts';
import { createSchedule, deleteSchedule, findSchedulesPage, getChangeableSchedule, getScheduleRow, toScheduleDto, updateSchedule } from './service.ts';

/** Every user of the company sees schedules in their client view; a change pokes them all. */
function pokeCompany(deps: AppDeps, companyId: number) {
  try {
    deps.realtime.pokeCompany(companyId);
  } catch (err) {
    // A lost poke only delays clients until their next pull; the write committed.
    deps.log.warn('poke failed', { companyId, error: String(err) });
  }
}

export function schedulesRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  const plan = requirePlan(deps, 'schedules');
  const write = <T>(fn: (trx: AppDeps['db']) => Promise<T>) => deps.db.transaction().execute(fn);
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
      const created = await write((trx) => createSchedule(trx, actor, input));
      pokeCompany(deps, actor.companyId);
      return c.json(created, 201);
    })
    .put('/schedules/:id', auth, plan, async (c) => {
      const actor = c.get('actor');
      const id = parseId(c, 'id');
      const input = await parseBody(c, scheduleUpdateSchema);
      const updated = await write((trx) => updateSchedule(trx, actor, id, input));
      pokeCompany(deps, actor.companyId);
      return c.json(updated);
    })
    .delete('/schedules/:id', auth, plan, async (c) => {
      const actor = c.get('actor');
      const id = parseId(c, 'id');
      const mediaPath = await write((trx) => deleteSchedule(trx, actor, id));
      await removeMedia(deps.config.mediaDir, mediaPath);
      pokeCompany(deps, actor.companyId);
      return c.json({ message: 'Schedule deleted' });
    })
    .get('/schedules/:id/media', auth, plan, async (c) => {
      const row = await getScheduleRow(deps.db, c.get('actor'), parseId(c, 'id'));
      const abs = row.mediaPath ? resolveMediaFile(deps.config.mediaDir, row.mediaPath) : undefined;
      const info = abs ? await stat(abs).catch(() => undefined) : undefined;
      if (!abs || !info?.isFile()) throw new AppError('ERR_NOT_FOUND', 'The schedule has no image.');
      return new Response(Readable.toWeb(createReadStream(abs)) as ReadableStream, {
        headers: { 'content-type': mimeOfPath(abs), 'content-length': String(info.size), 'cache-control': 'private, max-age=3600', 'x-content-type-options': 'nosniff' },
      });
    })
    .post('/schedules/:id/media-upload', auth, plan, limitUpload(SCHEDULE_MEDIA_MAX_BYTES), async (c) => {
      const actor = c.get('actor');
      const id = parseId(c, 'id');
      await getChangeableSchedule(deps.db, actor, id);
      const { file } = await readUpload(c, SCHEDULE_MEDIA_MAX_BYTES);
      assertImage(file);
      // The file is written first and removed again if the row cannot take it: never a row
      // pointing at nothing, never an orphan file after an error.
      const mediaPath = await storeMedia(deps.config.mediaDir, actor.companyId, 'schedules', file);
      let previous: string | null = null;
      try {
        const updated = await write(async (trx) => {
          previous = (await getChangeableSchedule(trx, actor, id)).mediaPath;
          return updateSchedule(trx, actor, id, { mediaPath, mediaName: file.name });
        });
        await removeMedia(deps.config.mediaDir, previous);
        pokeCompany(deps, actor.companyId);
        return c.json(updated);
      } catch (err) {
        await removeMedia(deps.config.mediaDir, mediaPath);
        throw err;
      }
    })
    .delete('/schedules/:id/media-upload', auth, plan, async (c) => {
      const actor = c.get('actor');
      const id = parseId(c, 'id');
      let previous: string | null = null;
      const updated = await write(async (trx) => {
        previous = (await getChangeableSchedule(trx, actor, id)).mediaPath;
        return updateSchedule(trx, actor, id, { mediaPath: null, mediaName: null });
      });
      await removeMedia(deps.config.mediaDir, previous);
      pokeCompany(deps, actor.companyId);
      return c.json(updated);
    });
}
