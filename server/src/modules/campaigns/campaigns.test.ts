// Campaigns and campaign settings over REST (spec/03 §4, §5, §7): contract, status machine,
// editability, name rules, permissions, plan flag and tenant isolation, on a fresh database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAMPAIGN_SETTINGS_DEFAULTS } from '@zapdesk/sync';
import { inSlices } from '../../db/slices.ts';
import { tenant } from '../../db/tenant.ts';
import { write } from '../../db/write.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedConnection, seedTenant } from '../../../test/seed.ts';
import { sliceBesideAnotherWrite } from '../../../test/slices.ts';
import { beginCampaignDelete, emptyCampaignSlice } from './service.ts';
import { readCampaignSettings } from './settings.ts';
import { bumpVersion } from '../../sync/version.ts';

const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f5f1d40000000049454e44ae426082', 'hex');

describe.each(DIALECTS)('campaigns REST on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  async function setup() {
    const tn = await seedTenant(t);
    const db = tenant(t.db, tn.company.id);
    const connection = await seedConnection(t, tn.company.id);
    const list = await db.insertInto('contactLists', { name: 'Clientes' }).returningAll().executeTakeFirstOrThrow();
    await db.insertInto('contactListItems', { contactListId: list.id, name: 'Ana Lima', number: '5511999990001' }).execute();
    const token = tn.adminSession.token;
    const create = (body: Record<string, unknown>) => t.request('POST', '/campaigns', { token, body });
    return { ...tn, db, connection, list, token, create };
  }

  it('creates an INATIVA campaign, reads, lists, searches and updates it', async () => {
    const { create, token, connection, list, company } = await setup();
    const res = await create({ name: 'Black Friday', message1: 'Olá {primeiro-nome}!', whatsappId: connection.id, contactListId: list.id, tagListId: 'Nenhuma' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Black Friday',
      status: 'INATIVA',
      message1: 'Olá {primeiro-nome}!',
      message2: '',
      confirmation: false,
      scheduledAt: null,
      completedAt: null,
      whatsappId: connection.id,
      whatsapp: { id: connection.id, name: connection.name },
      contactListId: list.id,
      contactList: { id: list.id, name: 'Clientes' },
      tagId: null,
      fileListId: null,
      mediaPath: null,
      companyId: company.id,
      editable: true,
      deleting: false,
      version: 1,
    });
    const id = res.body.id;
    expect((await t.request('GET', `/campaigns/${id}`, { token })).body).toEqual(res.body);
    await create({ name: 'Natal' });
    const page = await t.request('GET', '/campaigns/?searchParam=black', { token });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ count: 1, hasMore: false });
    expect(page.body.records.map((r: { id: number }) => r.id)).toEqual([id]);
    const all = await t.request('GET', '/campaigns', { token });
    expect(all.body.records).toHaveLength(2);

    const upd = await t.request('PUT', `/campaigns/${id}`, { token, body: { message2: 'Oi {nome}', scheduledAt: inHours(3) } });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect(upd.body).toMatchObject({ status: 'PROGRAMADA', message2: 'Oi {nome}', editable: true, version: 2 });
    // Back to no schedule: INATIVA again.
    expect((await t.request('PUT', `/campaigns/${id}`, { token, body: { scheduledAt: null } })).body.status).toBe('INATIVA');
  });

  it('applies the name rules and refuses a programmed campaign that cannot send', async () => {
    const { create, connection, list } = await setup();
    for (const name of ['', 'A', 'x'.repeat(51)]) {
      const res = await create({ name });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.issues[0].path).toBe('name');
    }
    expect((await create({ name: '  Ok  ' })).body.name).toBe('Ok');
    // Programmed without a message, without recipients, without a connection: refused.
    expect((await create({ name: 'No text', whatsappId: connection.id, contactListId: list.id, scheduledAt: inHours(2) })).body.issues[0].path).toBe('message1');
    expect((await create({ name: 'No list', message1: 'x', whatsappId: connection.id, scheduledAt: inHours(2) })).body.issues[0].path).toBe('contactListId');
    expect((await create({ name: 'No line', message1: 'x', contactListId: list.id, scheduledAt: inHours(2) })).body.issues[0].path).toBe('whatsappId');
    // A confirmation campaign needs its question.
    expect((await create({ name: 'Confirm', message1: 'x', contactListId: list.id, whatsappId: connection.id, confirmation: true, scheduledAt: inHours(2) })).body.issues[0].path).toBe('confirmationMessage1');
    expect((await create({ name: 'Confirm', message1: 'x', confirmationMessage2: 'Quer?', contactListId: list.id, whatsappId: connection.id, confirmation: 'true', scheduledAt: inHours(2) })).body).toMatchObject({ status: 'PROGRAMADA', confirmation: true });
    expect((await create({ name: 'Past', message1: 'x', contactListId: list.id, whatsappId: connection.id, scheduledAt: inHours(-2) })).status).toBe(400);
  });

  it('follows the editability rule and the status machine of §4', async () => {
    const { create, token, connection, list, db } = await setup();
    const ready = { message1: 'Oi', whatsappId: connection.id, contactListId: list.id };
    const soon = (await create({ name: 'Soon', ...ready, scheduledAt: inHours(0.5) })).body;
    expect(soon).toMatchObject({ status: 'PROGRAMADA', editable: false });
    expect((await t.request('PUT', `/campaigns/${soon.id}`, { token, body: { name: 'Later' } })).status).toBe(400);
    // Restart only from CANCELADA; cancel from PROGRAMADA or EM_ANDAMENTO.
    expect((await t.request('POST', `/campaigns/${soon.id}/restart`, { token })).status).toBe(400);
    const cancelled = await t.request('POST', `/campaigns/${soon.id}/cancel`, { token });
    expect(cancelled.body).toMatchObject({ status: 'CANCELADA', version: 2 });
    expect((await t.request('POST', `/campaigns/${soon.id}/cancel`, { token })).status).toBe(400);
    // A cancelled campaign saves its messages, nothing else.
    expect((await t.request('PUT', `/campaigns/${soon.id}`, { token, body: { message1: 'Novo texto' } })).body.message1).toBe('Novo texto');
    expect((await t.request('PUT', `/campaigns/${soon.id}`, { token, body: { name: 'Renamed' } })).status).toBe(400);
    expect((await t.request('PUT', `/campaigns/${soon.id}`, { token, body: { name: 'Soon', message2: 'Dois' } })).status).toBe(200);

    const restarted = await t.request('POST', `/campaigns/${soon.id}/restart`, { token });
    expect(restarted.body).toMatchObject({ status: 'EM_ANDAMENTO', editable: false });
    // Its recipients were written once; a second restart after a cancel adds none.
    const count = async () => (await db.selectFrom('campaignShippings').select('campaignShippings.id').where('campaignShippings.campaignId', '=', soon.id).execute()).length;
    expect(await count()).toBe(1);
    expect((await t.request('DELETE', `/campaigns/${soon.id}`, { token })).status).toBe(400);
    await t.request('POST', `/campaigns/${soon.id}/cancel`, { token });
    await t.request('POST', `/campaigns/${soon.id}/restart`, { token });
    expect(await count()).toBe(1);
    await t.request('POST', `/campaigns/${soon.id}/cancel`, { token });
    expect((await t.request('DELETE', `/campaigns/${soon.id}`, { token })).body).toEqual({ message: 'Campaign deleted' });
    expect((await t.request('GET', `/campaigns/${soon.id}`, { token })).status).toBe(404);
    expect(await count()).toBe(0);
  });

  it("empties a deleted campaign's recipients a slice at a time, refusing its restart meanwhile; a delete cut short finishes when asked again", async () => {
    const { company, db, list, connection, token } = await setup();
    const other = await seedTenant(t);
    const campaign = await db.insertInto('campaigns', { name: 'Grande', status: 'CANCELADA', message1: 'Oi', contactListId: list.id, whatsappId: connection.id }).returning('campaigns.id').executeTakeFirstOrThrow();
    const id = campaign.id;
    await db.insertInto('campaignShippings', Array.from({ length: 7 }, (_, k) => ({ campaignId: id, number: `5511933330${10 + k}`, message: 'Oi' }))).execute();
    const count = async () => (await db.selectFrom('campaignShippings').select('campaignShippings.id').where('campaignShippings.campaignId', '=', id).execute()).length;

    // Another company's id names no campaign of theirs, and none of its recipients.
    await expect(write(t.deps, (tx) => beginCampaignDelete(tx, other.company.id, id))).rejects.toMatchObject({ code: 'ERR_NOT_FOUND' });
    await inSlices(t.deps, (tx, limit) => emptyCampaignSlice(tx, other.company.id, id, limit), 2);
    expect(await count()).toBe(7);

    // The delete's first write marks it; then one slice, and the process dies (nothing more runs).
    await write(t.deps, (tx) => beginCampaignDelete(tx, company.id, id));
    expect(await write(t.deps, (tx) => emptyCampaignSlice(tx, company.id, id, 2))).toBe(2);
    // A restart would write the 2 deleted recipients again, and they would get the message twice.
    const restart = await t.request('POST', `/campaigns/${id}/restart`, { token });
    expect(restart.status).toBe(400);
    expect(restart.body).toMatchObject({ error: 'ERR_VALIDATION', message: 'This campaign is being deleted: delete it again to finish.' });
    // It says so, and cannot be edited either (its messages, as a cancelled one's could be).
    expect((await t.request('GET', `/campaigns/${id}`, { token })).body).toMatchObject({ status: 'CANCELADA', deleting: true, editable: false });
    const listed = (await t.request('GET', '/campaigns', { token })).body.records as { id: number; deleting: boolean }[];
    expect(listed.find((c) => c.id === id)?.deleting).toBe(true);
    const edit = await t.request('PUT', `/campaigns/${id}`, { token, body: { message1: 'Outra' } });
    expect(edit.body).toMatchObject({ error: 'ERR_VALIDATION', message: 'This campaign is being deleted: delete it again to finish.' });
    expect(await count()).toBe(5);

    // Deleting again goes on in slices: another write completes in between (SQLite: one writer).
    await sliceBesideAnotherWrite(t, other.company.id, (tx, limit) => emptyCampaignSlice(tx, company.id, id, limit), async () => (await count()) > 0);
    expect(await count()).toBe(0);
    expect((await t.request('DELETE', `/campaigns/${id}`, { token })).body).toEqual({ message: 'Campaign deleted' });
    expect((await t.request('GET', `/campaigns/${id}`, { token })).status).toBe(404);
  });

  it('uploads and removes the campaign media', async () => {
    const { create, token } = await setup();
    const { id } = (await create({ name: 'With media' })).body;
    const form = new FormData();
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'promo.png');
    const up = await t.app.request(`/campaigns/${id}/media-upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const body = await up.json();
    expect(up.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ mediaName: 'promo.png', version: 2 });
    expect(body.mediaPath).toMatch(/campaigns\//);
    const media = await t.request('GET', `/campaigns/${id}/media`, { token });
    expect(media.status).toBe(200);
    const bad = new FormData();
    bad.append('file', new Blob(['#!/bin/sh'], { type: 'text/plain' }), 'run.sh');
    expect((await t.app.request(`/campaigns/${id}/media-upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: bad })).status).toBe(415);
    const removed = await t.request('DELETE', `/campaigns/${id}/media-upload`, { token });
    expect(removed.body).toMatchObject({ mediaPath: null, mediaName: null, version: 3 });
  });

  it('saves campaign settings with custom variables, deduplicated by key', async () => {
    const { token, db, company } = await setup();
    expect((await t.request('GET', '/campaign-settings', { token })).body).toEqual([]);
    const saved = await t.request('POST', '/campaign-settings', {
      token,
      body: { settings: { messageInterval: 10, longerIntervalAfter: 5, greaterInterval: 40, variables: [{ key: 'loja', value: 'Centro' }, { key: 'loja', value: 'Outra' }, { key: 'cupom', value: 'BF10' }] } },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const byKey = Object.fromEntries(saved.body.map((r: { key: string; value: string }) => [r.key, JSON.parse(r.value)]));
    expect(byKey).toEqual({ messageInterval: 10, longerIntervalAfter: 5, greaterInterval: 40, variables: [{ key: 'loja', value: 'Centro' }, { key: 'cupom', value: 'BF10' }] });
    // Saving again updates in place.
    const again = await t.request('POST', '/campaign-settings', { token, body: { settings: { messageInterval: 5 } } });
    expect(again.body.find((r: { key: string }) => r.key === 'messageInterval').value).toBe('5');
    expect(again.body).toHaveLength(4);
    expect((await t.request('POST', '/campaign-settings', { token, body: { settings: { messageInterval: -1 } } })).status).toBe(400);
    expect((await t.request('POST', '/campaign-settings', { token, body: { settings: { sendWindowStart: '25:00' } } })).status).toBe(400);
    // A zone the runtime does not know is refused (it stopped every pass of the company's campaigns);
    // one stored before that rule is ignored: the window and {saudacao} use the server's zone.
    const mars = await t.request('POST', '/campaign-settings', { token, body: { settings: { timeZone: 'Mars/Olympus' } } });
    expect(mars.status).toBe(400);
    expect(mars.body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'settings.timeZone', message: expect.stringContaining('time zone') }] });
    expect((await t.request('POST', '/campaign-settings', { token, body: { settings: { timeZone: 'America/Sao_Paulo' } } })).status).toBe(200);
    await db.updateTable('campaignSettings').set({ value: JSON.stringify('Mars/Olympus'), ...bumpVersion() }).where('campaignSettings.key', '=', 'timeZone').execute();
    expect((await readCampaignSettings(t.db, company.id)).timeZone).toBeNull();
    // A custom variable may not take a built-in name ({nome} went out as the variable's value); one
    // saved before that rule is left out, the others kept.
    const nome = await t.request('POST', '/campaign-settings', { token, body: { settings: { variables: [{ key: 'nome', value: 'Override' }] } } });
    expect([nome.status, nome.body.error, nome.body.issues?.[0]?.path]).toEqual([400, 'ERR_VALIDATION', 'settings.variables.0.key']);
    await db.updateTable('campaignSettings').set({ value: JSON.stringify([{ key: 'Nome', value: 'Override' }, { key: 'cupom', value: 'BF10' }]), ...bumpVersion() }).where('campaignSettings.key', '=', 'variables').execute();
    expect((await readCampaignSettings(t.db, company.id)).variables).toEqual([{ key: 'cupom', value: 'BF10' }]);
    // The do-not-contact tag: one of the company's own; another company's is not found, and a
    // deleted tag leaves the setting at none.
    const other = await seedTenant(t);
    const theirs = await tenant(t.db, other.company.id).insertInto('tags', { name: 'Deles' }).returning('tags.id').executeTakeFirstOrThrow();
    const refused = await t.request('POST', '/campaign-settings', { token, body: { settings: { doNotContactTagId: theirs.id } } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'doNotContactTagId', message: 'not found' }] });
    expect((await t.request('GET', '/campaign-settings', { token })).body.find((r: { key: string }) => r.key === 'doNotContactTagId')).toBeUndefined();
    const mine = (await t.request('POST', '/tags', { token, body: { name: 'Não enviar' } })).body as { id: number };
    const kept = await t.request('POST', '/campaign-settings', { token, body: { settings: { doNotContactTagId: mine.id } } });
    expect(kept.body.find((r: { key: string }) => r.key === 'doNotContactTagId').value).toBe(String(mine.id));
    await t.request('DELETE', `/tags/${mine.id}`, { token });
    expect((await t.request('GET', '/campaign-settings', { token })).body.find((r: { key: string }) => r.key === 'doNotContactTagId').value).toBe('null');
    expect(CAMPAIGN_SETTINGS_DEFAULTS).toMatchObject({ messageInterval: 20, longerIntervalAfter: 20, greaterInterval: 60 });
  });

  it('is for admins, gated by the plan flag, and isolated per company', async () => {
    const { create, userSession, connection, list } = await setup();
    const { id } = (await create({ name: 'Mine', whatsappId: connection.id, contactListId: list.id })).body;
    // An attendant: refused everywhere.
    for (const [method, url] of [['GET', '/campaigns'], ['GET', `/campaigns/${id}`], ['POST', '/campaigns'], ['DELETE', `/campaigns/${id}`], ['GET', '/campaign-settings'], ['GET', `/campaigns/${id}/report`]] as const) {
      expect((await t.request(method, url, { token: userSession.token, body: method === 'POST' ? { name: 'Nope' } : undefined })).status).toBe(403);
    }
    // Another company: 404 for our campaign, and our rows are not theirs to name.
    const other = await seedTenant(t);
    const theirs = other.adminSession.token;
    expect((await t.request('GET', `/campaigns/${id}`, { token: theirs })).status).toBe(404);
    expect((await t.request('PUT', `/campaigns/${id}`, { token: theirs, body: { name: 'Hijack' } })).status).toBe(404);
    expect((await t.request('DELETE', `/campaigns/${id}`, { token: theirs })).status).toBe(404);
    expect((await t.request('POST', `/campaigns/${id}/cancel`, { token: theirs })).status).toBe(404);
    expect((await t.request('GET', '/campaigns', { token: theirs })).body.records).toEqual([]);
    const borrowed = await t.request('POST', '/campaigns', { token: theirs, body: { name: 'Borrow', whatsappId: connection.id } });
    expect(borrowed.status).toBe(400);
    expect(borrowed.body.issues[0].path).toBe('whatsappId');
    expect((await t.request('POST', '/campaigns', { token: theirs, body: { name: 'Borrow', contactListId: list.id } })).body.issues[0].path).toBe('contactListId');
    // A plan without campaigns: 403 even for an admin.
    const noPlan = await seedTenant(t, { useCampaigns: 0 });
    const refused = await t.request('GET', '/campaigns', { token: noPlan.adminSession.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('ERR_NO_PERMISSION');
    expect((await t.request('POST', '/campaign-settings', { token: noPlan.adminSession.token, body: { settings: {} } })).status).toBe(403);
  });

  it('pokes the company on every campaign write, so the lists and the report refresh (DESIGN §4)', async () => {
    const { create, token, company } = await setup();
    const pokes: number[] = [];
    const original = t.deps.realtime.pokeCompany;
    t.deps.realtime.pokeCompany = (companyId) => {
      pokes.push(companyId);
      original.call(t.deps.realtime, companyId);
    };
    try {
      const { id } = (await create({ name: 'Poked' })).body;
      await t.request('PUT', `/campaigns/${id}`, { token, body: { message1: 'Oi' } });
      await t.request('POST', '/campaign-settings', { token, body: { settings: { messageInterval: 5 } } });
      // The delete's first write pokes too: it marks the campaign being deleted.
      await t.request('DELETE', `/campaigns/${id}`, { token });
      await expect.poll(() => pokes.filter((c) => c === company.id).length).toBe(5);
    } finally {
      t.deps.realtime.pokeCompany = original;
    }
  });

  it('deleting the tag, connection, contact list or file list a campaign names detaches it (versions bumped); a running one is cancelled', async () => {
    const { create, token, connection, list, db } = await setup();
    const tag = await db.insertInto('tags', { name: 'Alvo' }).returningAll().executeTakeFirstOrThrow();
    const idle = (await create({ name: 'Idle', tagListId: tag.id, whatsappId: connection.id })).body;
    const running = (await create({ name: 'Running', message1: 'Oi', whatsappId: connection.id, contactListId: list.id, scheduledAt: inHours(0.5) })).body;
    await t.request('POST', `/campaigns/${running.id}/cancel`, { token });
    expect((await t.request('POST', `/campaigns/${running.id}/restart`, { token })).body.status).toBe('EM_ANDAMENTO');
    const delTag = await t.request('DELETE', `/tags/${tag.id}`, { token });
    expect(delTag.status, JSON.stringify(delTag.body)).toBe(200);
    expect((await t.request('GET', `/campaigns/${idle.id}`, { token })).body).toMatchObject({ tagId: null, version: 2 });
    const delConn = await t.request('DELETE', `/whatsapp/${connection.id}`, { token });
    expect(delConn.status, JSON.stringify(delConn.body)).toBe(200);
    expect((await t.request('GET', `/campaigns/${idle.id}`, { token })).body).toMatchObject({ whatsappId: null, status: 'INATIVA', version: 3 });
    expect((await t.request('GET', `/campaigns/${running.id}`, { token })).body).toMatchObject({ whatsappId: null, status: 'CANCELADA' });
    // The contact list and the file list (their own routes) detach it too.
    const files = await db.insertInto('files', { name: 'Arquivos' }).returningAll().executeTakeFirstOrThrow();
    await t.request('PUT', `/campaigns/${idle.id}`, { token, body: { contactListId: list.id, fileListId: files.id } });
    const delList = await t.request('DELETE', `/contact-lists/${list.id}`, { token });
    expect(delList.status, JSON.stringify(delList.body)).toBe(200);
    const delFiles = await t.request('DELETE', `/files/${files.id}`, { token });
    expect(delFiles.status, JSON.stringify(delFiles.body)).toBe(200);
    expect((await t.request('GET', `/campaigns/${idle.id}`, { token })).body).toMatchObject({ contactListId: null, fileListId: null, version: 6 });
  });
});
