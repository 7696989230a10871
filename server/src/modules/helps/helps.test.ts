import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedSuper, seedTenant } from '../../../test/seed.ts';

describe.each(DIALECTS)('helps on %s', (dialect) => {
  let t: TestApp;
  let superToken: string;
  let tenant: Awaited<ReturnType<typeof seedTenant>>;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    superToken = (await seedSuper(t)).session.token;
    tenant = await seedTenant(t);
  });
  afterAll(async () => t.close());

  const create = (body: unknown, token = superToken) => t.request('POST', '/helps', { token, body });

  it('the super-admin adds a help video; everyone signed in reads the list by title on /helps and /helps/list', async () => {
    const res = await create({ title: 'Tickets: first steps', description: 'How to answer', video: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', link: 'https://docs.example.test/tickets' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      title: 'Tickets: first steps',
      description: 'How to answer',
      video: 'dQw4w9WgXcQ',
      link: 'https://docs.example.test/tickets',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    await create({ title: 'Campaigns', video: 'aBcDeFgHiJk' });

    for (const path of ['/helps', '/helps/list']) {
      for (const token of [tenant.userSession.token, tenant.adminSession.token, superToken]) {
        const list = await t.request('GET', path, { token });
        expect(list.status).toBe(200);
        const titles = list.body.map((h: { title: string }) => h.title);
        expect(titles.indexOf('Campaigns')).toBeLessThan(titles.indexOf('Tickets: first steps'));
        expect(list.body.find((h: { title: string }) => h.title === 'Campaigns')).toMatchObject({ video: 'aBcDeFgHiJk', description: null, link: null });
      }
    }
    expect((await t.request('GET', '/helps')).status).toBe(401);
  });

  it('refuses a missing title, a video that is not YouTube and a link that is not http(s)', async () => {
    const res = await create({ title: '  ', video: 'https://vimeo.com/76979871', link: 'javascript:alert(1)' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(res.body.issues.map((i: { path: string }) => i.path)).toEqual(['title', 'video', 'link']);
  });

  it('PUT changes only what is sent and clears a field sent empty', async () => {
    const { id } = (await create({ title: 'Queues', description: 'Old text', video: 'dQw4w9WgXcQ' })).body;
    const res = await t.request('PUT', `/helps/${id}`, { token: superToken, body: { description: '', video: 'https://youtu.be/aBcDeFgHiJk' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, title: 'Queues', description: null, video: 'aBcDeFgHiJk' });
    const unknown = await t.request('PUT', '/helps/999999', { token: superToken, body: { title: 'x' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('ERR_NO_HELP_FOUND');
  });

  it('DELETE removes it; an unknown id is 404 ERR_NO_HELP_FOUND', async () => {
    const { id } = (await create({ title: 'To remove' })).body;
    expect((await t.request('DELETE', `/helps/${id}`, { token: superToken })).status).toBe(200);
    const list = await t.request('GET', '/helps', { token: superToken });
    expect(list.body.map((h: { id: number }) => h.id)).not.toContain(id);
    for (const path of [`/helps/${id}`, '/helps/abc']) {
      const res = await t.request('DELETE', path, { token: superToken });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ERR_NO_HELP_FOUND');
    }
  });

  it('only the super-admin may change helps', async () => {
    const { id } = (await create({ title: 'Guarded' })).body;
    for (const token of [tenant.adminSession.token, tenant.userSession.token]) {
      const attempts = [create({ title: 'Nope' }, token), t.request('PUT', `/helps/${id}`, { token, body: { title: 'Changed' } }), t.request('DELETE', `/helps/${id}`, { token })];
      for (const res of await Promise.all(attempts)) {
        expect(res.status).toBe(403);
        expect(res.body.error).toBe('ERR_NO_PERMISSION');
      }
    }
    const list = await t.request('GET', '/helps', { token: superToken });
    expect(list.body.filter((h: { title: string }) => ['Guarded', 'Nope', 'Changed'].includes(h.title)).map((h: { title: string }) => h.title)).toEqual(['Guarded']);
  });
});
