import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedQueue, seedTenant, seedTicket, seedUserQueues } from '../../../test/seed.ts';

describe.each(DIALECTS)('ticket tags and kanban on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  async function setup() {
    const tenant = await seedTenant(t);
    const token = tenant.adminSession.token;
    const tag = async (name: string, kanban: 0 | 1) => (await t.request('POST', '/tags', { token, body: { name, kanban } })).body as { id: number };
    return { ...tenant, token, todo: await tag('To do', 1), doing: await tag('Doing', 1), vip: await tag('Vip client', 0) };
  }
  const laneOf = (board: { lanes: { id: string; ticketIds: number[] }[] }, ticketId: number) =>
    board.lanes.filter((l) => l.ticketIds.includes(ticketId)).map((l) => l.id);

  it('lists the kanban tags and builds lanes: open untagged first, then one per kanban tag', async () => {
    const { company, token, todo, doing, vip } = await setup();
    const lista = await t.request('GET', '/tags/kanban', { token });
    expect(lista.status).toBe(200);
    expect(lista.body.lista.map((x: { id: number }) => x.id)).toEqual([doing.id, todo.id]);

    const untagged = await seedTicket(t, company.id, { status: 'open', lastMessage: 'hello' });
    const pendingUntagged = await seedTicket(t, company.id, { status: 'pending' });
    const onlyVip = await seedTicket(t, company.id, { status: 'open' });
    const closed = await seedTicket(t, company.id, { status: 'closed' });
    const inTodo = await seedTicket(t, company.id, { status: 'open' });
    await t.request('POST', '/tags/sync', { token, body: { ticketId: onlyVip.id, tags: [{ id: vip.id }] } });
    await t.request('POST', '/tags/sync', { token, body: { ticketId: inTodo.id, tags: [{ id: todo.id }, { id: vip.id }] } });

    const board = await t.request('GET', '/ticket/kanban?showAll=true', { token });
    expect(board.status).toBe(200);
    expect(board.body.lanes.map((l: { id: string; title: string | null }) => [l.id, l.title])).toEqual([
      ['lane0', null],
      [`tag-${doing.id}`, 'Doing'],
      [`tag-${todo.id}`, 'To do'],
    ]);
    expect(board.body.lanes[0].ticketIds).toEqual([untagged.id]);
    expect(laneOf(board.body, inTodo.id)).toEqual([`tag-${todo.id}`]);
    expect(laneOf(board.body, onlyVip.id)).toEqual([]);
    expect(laneOf(board.body, pendingUntagged.id)).toEqual([]);
    const ids = board.body.tickets.map((x: { id: number }) => x.id);
    expect(ids).not.toContain(closed.id);
    const card = board.body.tickets.find((x: { id: number }) => x.id === untagged.id);
    expect(card).toMatchObject({ uuid: untagged.uuid, status: 'open', lastMessage: 'hello', tags: [], contact: { id: untagged.contactId } });
    expect(card.contact.name).toMatch(/^Contact /);
    expect(board.body.tickets.find((x: { id: number }) => x.id === inTodo.id).tags.map((x: { name: string }) => x.name)).toEqual(['To do', 'Vip client']);
  });

  it('moves a card between lanes with DELETE then PUT, keeping non-kanban tags', async () => {
    const { company, token, todo, doing, vip } = await setup();
    const ticket = await seedTicket(t, company.id, { status: 'open' });
    const put = await t.request('PUT', `/ticket-tags/${ticket.id}/${todo.id}`, { token });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ ticketId: ticket.id, tags: [expect.objectContaining({ id: todo.id, kanban: 1 })] });
    await t.request('PUT', `/ticket-tags/${ticket.id}/${vip.id}`, { token });
    // Adding the same tag twice changes nothing.
    expect((await t.request('PUT', `/ticket-tags/${ticket.id}/${todo.id}`, { token })).body.tags).toHaveLength(2);
    const before = (await t.request('GET', '/ticket/kanban?showAll=true', { token })).body;
    expect(laneOf(before, ticket.id)).toEqual([`tag-${todo.id}`]);
    const versionBefore = (await t.db.selectFrom('tickets').select('version').where('id', '=', ticket.id).executeTakeFirstOrThrow()).version;

    const removed = await t.request('DELETE', `/ticket-tags/${ticket.id}`, { token });
    expect(removed.body.tags.map((x: { id: number }) => x.id)).toEqual([vip.id]);
    await t.request('PUT', `/ticket-tags/${ticket.id}/${doing.id}`, { token });
    const after = (await t.request('GET', '/ticket/kanban?showAll=true', { token })).body;
    expect(laneOf(after, ticket.id)).toEqual([`tag-${doing.id}`]);
    const versionAfter = (await t.db.selectFrom('tickets').select('version').where('id', '=', ticket.id).executeTakeFirstOrThrow()).version;
    expect(versionAfter).toBe(versionBefore + 2);

    // Back to the first lane: no kanban tag and (after sync) no tag at all.
    await t.request('DELETE', `/ticket-tags/${ticket.id}`, { token });
    const sync = await t.request('POST', '/tags/sync', { token, body: { ticketId: ticket.id, tags: [] } });
    expect(sync.body).toEqual({ ticketId: ticket.id, tags: [] });
    expect(laneOf((await t.request('GET', '/ticket/kanban?showAll=true', { token })).body, ticket.id)).toEqual(['lane0']);
  });

  it('shows attendants only their tickets, honours showAll only for admins, and filters by queueIds', async () => {
    const { company, token, user, userSession } = await setup();
    const mine = await seedQueue(t, company.id);
    const other = await seedQueue(t, company.id);
    await seedUserQueues(t, company.id, user.id, [mine.id]);
    const inMine = await seedTicket(t, company.id, { status: 'open', queueId: mine.id });
    const inOther = await seedTicket(t, company.id, { status: 'open', queueId: other.id });
    const own = await seedTicket(t, company.id, { status: 'open', queueId: other.id, userId: user.id });

    const ids = (body: { tickets: { id: number }[] }) => body.tickets.map((x) => x.id).sort((a, b) => a - b);
    const asUser = await t.request('GET', '/ticket/kanban?showAll=true', { token: userSession.token });
    expect(ids(asUser.body)).toEqual([inMine.id, own.id].sort((a, b) => a - b));
    const asAdmin = await t.request('GET', '/ticket/kanban?showAll=true', { token });
    expect(ids(asAdmin.body)).toEqual([inMine.id, inOther.id, own.id].sort((a, b) => a - b));
    const adminNoShowAll = await t.request('GET', '/ticket/kanban?showAll=false', { token });
    expect(ids(adminNoShowAll.body)).toEqual([]);
    const filtered = await t.request('GET', `/ticket/kanban?showAll=true&queueIds=${encodeURIComponent(JSON.stringify([other.id]))}`, { token });
    expect(ids(filtered.body)).toEqual([inOther.id, own.id].sort((a, b) => a - b));
    expect((await t.request('GET', '/ticket/kanban?queueIds=notjson', { token })).status).toBe(400);

    // Tagging a ticket outside the attendant's view is refused.
    const tag = (await t.request('GET', '/tags/kanban', { token })).body.lista[0];
    expect((await t.request('PUT', `/ticket-tags/${inOther.id}/${tag.id}`, { token: userSession.token })).status).toBe(403);
    expect((await t.request('PUT', `/ticket-tags/${inMine.id}/${tag.id}`, { token: userSession.token })).status).toBe(200);
  });

  it('validates POST /tags/sync and refuses another company tickets and tags', async () => {
    const mine = await setup();
    const theirs = await setup();
    const myTicket = await seedTicket(t, mine.company.id);
    const theirTicket = await seedTicket(t, theirs.company.id);
    const token = mine.token;
    const bad = await t.request('POST', '/tags/sync', { token, body: { ticketId: 'x', tags: 'no' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
    const foreignTicket = await t.request('POST', '/tags/sync', { token, body: { ticketId: theirTicket.id, tags: [{ id: mine.todo.id }] } });
    expect(foreignTicket.status).toBe(404);
    expect(foreignTicket.body.error).toBe('ERR_NO_TICKET_FOUND');
    const foreignTag = await t.request('POST', '/tags/sync', { token, body: { ticketId: myTicket.id, tags: [{ id: mine.todo.id }, { id: theirs.todo.id }] } });
    expect(foreignTag.status).toBe(404);
    // Nothing half-written: the ticket keeps no tag.
    expect(await t.db.selectFrom('ticketTags').selectAll().where('ticketId', '=', myTicket.id).execute()).toEqual([]);
    expect((await t.request('PUT', `/ticket-tags/${theirTicket.id}/${mine.todo.id}`, { token })).status).toBe(404);
    expect((await t.request('PUT', `/ticket-tags/${myTicket.id}/${theirs.todo.id}`, { token })).status).toBe(404);
    expect((await t.request('DELETE', `/ticket-tags/${theirTicket.id}`, { token })).status).toBe(404);
    expect((await t.request('DELETE', '/ticket-tags/abc', { token })).status).toBe(404);
    const board = await t.request('GET', '/ticket/kanban?showAll=true', { token });
    expect(board.body.tickets.map((x: { id: number }) => x.id)).not.toContain(theirTicket.id);
  });

  it('answers ids beyond 32 bits with a validation error, never a failed query', async () => {
    const { token } = await setup();
    const big = 99_999_999_999;
    for (const [method, url, body] of [
      ['POST', '/tags/sync', { ticketId: big, tags: [{ id: big }] }],
      ['POST', '/ticket-notes', { note: 'hello', ticketId: big, contactId: big }],
      ['GET', `/ticket-notes/list?ticketId=${big}&contactId=${big}`],
      ['POST', '/chats', { title: 'x', users: [{ id: big }] }],
      ['GET', `/ticket/kanban?queueIds=[${big}]`],
    ] as const) {
      const res = await t.request(method, url, { token, body });
      expect(res.status, `${method} ${url}`).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    for (const [method, url] of [
      ['GET', `/tags/${big}`],
      ['PUT', `/ticket-tags/${big}/${big}`],
      ['GET', `/quick-messages/${big}`],
      ['GET', `/chats/${big}`],
      ['GET', `/announcements/${big}`],
      ['DELETE', `/ticket-notes/${big}`],
    ] as const) {
      expect((await t.request(method, url, { token })).status, url).toBe(404);
    }
  });

  it('needs the kanban plan for the board and the kanban tags', async () => {
    const { adminSession } = await seedTenant(t, { useKanban: 0 });
    const token = adminSession.token;
    expect((await t.request('GET', '/ticket/kanban', { token })).status).toBe(403);
    expect((await t.request('GET', '/tags/kanban', { token })).body.error).toBe('ERR_NO_PERMISSION');
    expect((await t.request('GET', '/tags/list', { token })).status).toBe(200);
  });
});
