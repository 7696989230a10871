// Typebot's remaining fields in a conversation (issue 16), through the simulator and a local fake of
// Typebot on a fresh database of each dialect: image, video and audio bubbles fetched and sent as
// files, embeds as links; the delay between messages (each reply after the first waits its turn in
// the outbox); a session that expired starts a new chat instead of continuing the old one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNumber, setupDesk } from '../../test/conversation.ts';
import { startFakeServices, type FakeRequest, type FakeServices } from '../../test/fakes/services.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { generateMedia } from '../channels/simulator/media.ts';
import { tenant } from '../db/tenant.ts';
import { bumpVersion } from '../sync/version.ts';

describe.each(DIALECTS)('Typebot on %s', (dialect) => {
  let t: TestApp;
  let fake: FakeServices;
  beforeAll(async () => {
    fake = await startFakeServices();
    t = await createTestApp(dialect, { simulator: true, assistants: { concurrency: 4, timeoutMs: 3_000, attempts: 2, backoffMs: 30, openaiBaseUrl: `${fake.url}/v1`, transcriptionModel: 'whisper-1', dialogflowBaseUrl: fake.url, publicUrl: 'http://zapdesk.test' } });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('sends media bubbles as files, spaces replies by the delay, and starts anew after the session expired', async () => {
    const desk = await setupDesk(t, { queues: [{ name: 'Atendimento' }] });
    const db = tenant(t.db, desk.companyId);
    const { id: integrationId } = await db
      .insertInto('queueIntegrations', { name: 'Padaria bot', type: 'typebot', urlN8n: `${fake.url}/tb`, typebotSlug: 'vitrine', typebotDelayMessage: 2_000, typebotExpires: 10 } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.updateTable('whatsapps').set({ integrationId, ...bumpVersion() }).where('whatsapps.id', '=', desk.connectionId).execute();
    await db.deleteFrom('whatsappQueues').where('whatsappQueues.whatsappId', '=', desk.connectionId).execute();

    const image = generateMedia('image', 'bolo.png');
    const video = generateMedia('video', 'forno.mp4');
    fake.on(/^\/files\/bolo\.png$/, () => ({ body: image.data, headers: { 'content-type': image.mimeType } }));
    fake.on(/^\/files\/forno\.mp4$/, () => ({ body: video.data, headers: { 'content-type': video.mimeType } }));
    const starts: FakeRequest[] = [];
    const continues: FakeRequest[] = [];
    fake.on(/^\/tb\/api\/v1\/typebots\/vitrine\/startChat$/, (req) => {
      starts.push(req);
      return {
        json: {
          sessionId: `vitrine-${starts.length}`,
          messages: [
            { type: 'text', content: { type: 'markdown', markdown: 'Veja o bolo do dia:' } },
            { type: 'image', content: { url: `${fake.url}/files/bolo.png` } },
            { type: 'video', content: { url: `${fake.url}/files/forno.mp4` } },
            { type: 'embed', content: { url: 'https://padaria.example/cardapio' } },
          ],
          input: { type: 'text input' },
        },
      };
    });
    fake.on(/^\/tb\/api\/v1\/sessions\/[^/]+\/continueChat$/, (req) => {
      continues.push(req);
      return { json: { messages: [{ type: 'text', content: { type: 'markdown', markdown: 'Anotado!' } }], input: { type: 'text input' } } };
    });

    const from = newNumber();
    await desk.say(from, 'Oi');
    await t.deps.assistants.idle();
    const ticket = (await desk.ticketOf(from))!;
    // The four replies were queued in one write: the first leaves at once (and its outbox row is gone
    // once sent), each of the others waits 2 s after the one before.
    const waiting = await db
      .selectFrom('outbox')
      .select(['outbox.notBefore'])
      .where('outbox.ticketId', '=', ticket.id)
      .where('outbox.notBefore', 'is not', null)
      .orderBy('outbox.id')
      .execute();
    expect(waiting).toHaveLength(3);
    const due = waiting.map((r) => Date.parse(r.notBefore!));
    expect([due[1]! - due[0]!, due[2]! - due[1]!]).toEqual([2_000, 2_000]);
    // All of them reach the customer, in order: the text, the two files, the link.
    await expect
      .poll(async () => (await desk.outbox(from)).map((m) => [m.body, m.mediaType ?? null, m.fileName ?? null]), { timeout: 20_000 })
      .toEqual([
        ['Veja o bolo do dia:', null, null],
        ['', 'image', 'bolo.png'],
        ['', 'video', 'forno.mp4'],
        ['https://padaria.example/cardapio', null, null],
      ]);

    // Within the expiry the session goes on.
    await desk.say(from, 'Quero um');
    await t.deps.assistants.idle();
    expect(continues.map((r) => r.path)).toEqual(['/tb/api/v1/sessions/vitrine-1/continueChat']);
    expect(starts).toHaveLength(1);
    // Ten minutes without a message later (the session's expiry moved to the past), a new chat starts.
    await db.updateTable('assistantSessions').set({ expiresAt: new Date(Date.now() - 1_000).toISOString() }).where('assistantSessions.ticketId', '=', ticket.id).execute();
    await desk.say(from, 'Oi de novo');
    await t.deps.assistants.idle();
    expect(starts).toHaveLength(2);
    expect((starts[1]!.json as { message: { text: string } }).message.text).toBe('Oi de novo');
    expect(continues).toHaveLength(1);
  });
});
