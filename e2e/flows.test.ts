// The flow builder end to end (issue 15), with no faked REST: the admin creates a flow on
// /flowbuilders, draws it in the editor with the real UI (the "Add a step" menu, the node dialogs,
// edges dragged from an output handle to the next node): start → message with a variable → menu
// (1 Vendas, 2 Suporte) whose option 1 leads to a question (its answer saved as `email_cliente`) and
// then to a ticket node for a queue; saves it, reloads it and finds the same graph; makes an active
// phrase campaign "promo" on the demo connection on /phrase-lists. Then a simulated customer writes
// "Promo!": the simulator's outbox gets the flow's message with the contact's name filled and the
// menu; answering 1 brings the question, answering it moves the ticket to the queue, and the run
// keeps the answer under its name, which the agent sees arrive in the ticket's contact drawer.
// A second test uploads an image in an image step through the editor's dialog (the real upload
// call), saves, and a simulated customer receives that image from the flow.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, apiAs, DEMO, login, newPage, shot, startE2E, type E2E } from './harness.ts';

vi.setConfig({ testTimeout: 120_000 });

type Api = Awaited<ReturnType<typeof apiAs>>;
let e2e: E2E;
let simulator: Api;
let admin: Api;
let connection: { id: number; name: string };
const OPS = { email: 'flows-ops@demo.zapdesk.local', password: 'Ops-e2e-1234' };
const CUSTOMER = { from: '5511977771501', name: 'Marina Flores' };
const FOODIE = { from: '5511977771502', name: 'Caio Prado' };
// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

beforeAll(async () => {
  e2e = await startE2E();
  simulator = await apiAs(e2e, DEMO.superAdmin, ADMIN_PASSWORD);
  // The browser signs in as the demo admin (which ends that account's other sessions): the test's own
  // calls go as a second admin of the company.
  const demoAdmin = await apiAs(e2e, DEMO.admin, e2e.demoPassword);
  await demoAdmin('POST', '/users', { name: 'Flow Ops', email: OPS.email, password: OPS.password, profile: 'admin' });
  admin = await apiAs(e2e, OPS.email, OPS.password);
  connection = (await admin<{ id: number; name: string }[]>('GET', '/whatsapp'))[0]!;
}, 120_000);
afterAll(async () => {
  await e2e?.close();
});

/** Drags from an output handle to a node's input handle, as a user draws an edge. */
async function connect(page: Page, from: Locator, to: Locator): Promise<void> {
  const a = (await from.boundingBox())!;
  const b = (await to.locator('.react-flow__handle.target').boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 15 });
  await page.mouse.up();
}

async function addStep(page: Page, type: string, fill: (dialog: Locator) => Promise<void>): Promise<void> {
  const before = await page.locator('.react-flow__node').count();
  await page.getByRole('button', { name: 'Add a step' }).click();
  await page.getByRole('navigation', { name: 'Add a step' }).getByRole('button', { name: type, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await fill(dialog);
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.locator('.react-flow__node').nth(before).waitFor();
  await page.getByRole('button', { name: 'Fit the flow to the screen' }).click();
  await page.waitForTimeout(300);
}

type Graph = { nodes: { id: string; type: string; data: Record<string, unknown> }[]; connections: { source: string; target: string; sourceHandle?: string | null }[] };

describe('flow builder', () => {
  /** The demo admin in a new page (errors of the page collected), a flow named `name` added from the list. */
  async function addFlow(name: string) {
    const { context, page } = await newPage(e2e, { width: 1440, height: 900 });
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await login(page, DEMO.admin, e2e.demoPassword);
    await page.goto('/flowbuilders');
    await page.getByRole('button', { name: 'Add flow' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill(name);
    await page.getByRole('dialog').getByRole('button', { name: 'Add' }).click();
    return { context, page, errors };
  }

  /** A flow of `nodes` saved through the API, open in the editor of a new 1280×800 page as the demo admin. */
  async function openSavedFlow(name: string, nodes: { id: string; type: string; position: { x: number; y: number }; data: Record<string, unknown> }[]) {
    const { id } = await admin<{ id: number }>('POST', '/flowbuilder', { name });
    await admin('POST', '/flowbuilder/flow', { idFlow: id, nodes, connections: [] });
    const { context, page } = await newPage(e2e, { width: 1280, height: 800 });
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await login(page, DEMO.admin, e2e.demoPassword);
    await page.goto(`/flowbuilder/${id}`);
    return { id, context, page, errors };
  }

  it('draws a flow, saves and reloads it, starts it from a phrase campaign, and the customer is served by it', async () => {
    // The list: a new flow.
    const { context, page, errors } = await addFlow('Promo da loja');
    await page.getByText('Flow created successfully').waitFor();
    await page.getByRole('cell', { name: 'Promo da loja', exact: true }).click();
    await page.waitForURL(/\/flowbuilder\/\d+$/);
    const flowId = Number(new URL(page.url()).pathname.split('/').at(-1));

    // The editor of a never-saved flow holds its start node.
    const start = page.locator('.react-flow__node-start');
    await start.waitFor();
    expect(await page.locator('.react-flow__node').count()).toBe(1);

    // A message with a variable, a menu, a question, a ticket to a queue.
    await addStep(page, 'Message', (d) => d.getByLabel('Message').fill('Olá {{nome}}! Escolha: 1 Vendas 2 Suporte'));
    await addStep(page, 'Menu', async (d) => {
      await d.getByLabel('Menu message').fill('Digite o número da opção');
      await d.getByRole('textbox', { name: 'Option 1' }).fill('Vendas');
      await d.getByRole('button', { name: 'Add option' }).click();
      await d.getByRole('textbox', { name: 'Option 2' }).fill('Suporte');
    });
    await addStep(page, 'Question', async (d) => {
      await d.getByLabel('Message', { exact: true }).fill('Qual é o seu e-mail?');
      await d.getByLabel('Save answer as').fill('email_cliente');
    });
    let queue = { id: 0, name: '' };
    await addStep(page, 'Ticket', async (d) => {
      const option = d.getByLabel('Queue').locator('option').nth(1);
      queue = { id: Number(await option.getAttribute('value')), name: (await option.textContent())!.trim() };
      await d.getByLabel('Queue').selectOption(String(queue.id));
    });
    expect(queue.id).toBeGreaterThan(0);
    const message = page.locator('.react-flow__node-message');
    const menu = page.locator('.react-flow__node-menu');
    const question = page.locator('.react-flow__node-question');
    const ticket = page.locator('.react-flow__node-ticket');
    await message.getByText('Olá {{nome}}!', { exact: false }).waitFor();
    await question.getByText('{{email_cliente}}', { exact: false }).waitFor();

    // The edges, drawn by dragging each output to the next node.
    await connect(page, start.locator('.react-flow__handle.source'), message);
    await connect(page, message.locator('.react-flow__handle.source'), menu);
    await connect(page, menu.locator('.react-flow__handle.source[data-handleid="a1"]'), question);
    await connect(page, question.locator('.react-flow__handle.source[data-handleid="a"]'), ticket);
    await page.waitForFunction(() => document.querySelectorAll('.react-flow__edge').length === 4);
    // The menu's second option leads nowhere yet: its warning names it as the card does.
    await menu.getByText('Output “2 - Suporte” is not connected: the flow ends there').waitFor();
    await shot(page, 'flows-drawn');

    // Save: the translated toast, and nothing left unsaved.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Flow saved successfully').waitFor();
    expect(await page.getByText('Unsaved changes').count()).toBe(0);

    // The server keeps the graph as drawn.
    const saved = (await admin<{ flow: { flow: Graph } }>('GET', `/flowbuilder/flow/${flowId}`)).flow.flow;
    const idOf = (type: string) => saved.nodes.find((n) => n.type === type)!.id;
    expect(saved.nodes.map((n) => n.type).sort()).toEqual(['menu', 'message', 'question', 'start', 'ticket']);
    expect(saved.nodes.find((n) => n.type === 'question')!.data).toMatchObject({ typebotIntegration: { message: 'Qual é o seu e-mail?', answerKey: 'email_cliente' } });
    expect(saved.connections.map((c) => ({ source: c.source, target: c.target, sourceHandle: c.sourceHandle })).sort((x, y) => x.source.localeCompare(y.source))).toEqual(
      [
        { source: idOf('start'), target: idOf('message'), sourceHandle: 'a' },
        { source: idOf('message'), target: idOf('menu'), sourceHandle: 'a' },
        { source: idOf('menu'), target: idOf('question'), sourceHandle: 'a1' },
        { source: idOf('question'), target: idOf('ticket'), sourceHandle: 'a' },
      ].sort((x, y) => x.source.localeCompare(y.source)),
    );

    // A reload draws the same nodes and edges.
    const drawn = async () => ({
      nodes: (await page.locator('.react-flow__node').evaluateAll((els) => els.map((e) => e.getAttribute('data-id')))).sort(),
      edges: (await page.locator('.react-flow__edge').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')))).sort(),
    });
    const before = await drawn();
    await page.reload();
    await page.locator('.react-flow__node').nth(4).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('.react-flow__edge').length === 4);
    expect(await drawn()).toEqual(before);
    expect(before.nodes.sort()).toEqual(saved.nodes.map((n) => n.id).sort());
    await page.locator('.react-flow__node-message').getByText('Olá {{nome}}!', { exact: false }).waitFor();

    // An active phrase campaign for the flow on the demo connection.
    await page.goto('/phrase-lists');
    await page.getByRole('button', { name: 'Add phrase' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Promoção');
    await dialog.getByLabel('Flow').selectOption({ label: 'Promo da loja' });
    await dialog.getByLabel('Connection').selectOption({ label: connection.name });
    await dialog.getByLabel('Phrase').fill('promo');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Phrase created successfully!').waitFor();
    await page.getByRole('cell', { name: 'Promoção', exact: true }).waitFor();
    // Beside the demo's own phrase campaign ("order", seeded at first start).
    const campaigns = await admin<{ list: { flowId: number; whatsappId: number | null; phrase: string; status: boolean }[] }>('GET', '/flowcampaign');
    expect(campaigns.list.filter((c) => c.flowId === flowId)).toEqual([expect.objectContaining({ flowId, whatsappId: connection.id, phrase: 'promo', status: true })]);
    await shot(page, 'flows-phrase');
    // A second active campaign with that phrase on that connection: the server's reason lands under
    // the phrase, and goes once the phrase is edited.
    await page.getByRole('button', { name: 'Add phrase' }).click();
    await dialog.getByLabel('Name').fill('Promoção 2');
    await dialog.getByLabel('Flow').selectOption({ label: 'Promo da loja' });
    await dialog.getByLabel('Connection').selectOption({ label: connection.name });
    await dialog.getByLabel('Phrase').fill('Promo');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const twin = dialog.getByText('The active phrase campaign "Promoção" already starts a flow with this phrase on this connection', { exact: false });
    await twin.waitFor();
    expect(await dialog.getByLabel('Phrase').getAttribute('aria-invalid')).toBe('true');
    await dialog.getByLabel('Phrase').fill('promo de natal');
    await twin.waitFor({ state: 'detached' });
    expect(await dialog.getByLabel('Phrase').getAttribute('aria-invalid')).toBeNull();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // The customer writes the phrase: the flow answers with the name filled, then the menu.
    await simulator('POST', '/simulator/messages', { connectionId: connection.id, ...CUSTOMER, body: 'Promo!' });
    const outbox = () => simulator<{ body: string }[]>('GET', `/simulator/outbox?connectionId=${connection.id}&to=${CUSTOMER.from}`).then((ms) => ms.map((m) => m.body));
    await expect.poll(outbox, { timeout: 15_000 }).toEqual(expect.arrayContaining([expect.stringContaining('Olá Marina Flores! Escolha: 1 Vendas 2 Suporte'), expect.stringContaining('Digite o número da opção')]));
    expect((await outbox()).join('\n')).not.toContain('{{nome}}');

    // The ticket waits in the flow's menu, in no queue yet.
    const ticketOf = async () => (await admin<{ tickets: { id: number; uuid: string; queueId: number | null; flowId?: number | null; flowNodeId?: string | null }[] }>('GET', `/tickets?searchParam=${encodeURIComponent(CUSTOMER.name)}&showAll=true`)).tickets[0];
    expect(await ticketOf()).toMatchObject({ queueId: null, flowId });

    // Answering 1 takes the menu's first output: the question is asked, and the ticket waits on it.
    await simulator('POST', '/simulator/messages', { connectionId: connection.id, ...CUSTOMER, body: '1' });
    await expect.poll(outbox, { timeout: 15_000 }).toEqual(expect.arrayContaining([expect.stringContaining('Qual é o seu e-mail?')]));
    await expect.poll(async () => (await ticketOf())?.flowNodeId, { timeout: 15_000 }).toBe(idOf('question'));
    expect(await ticketOf()).toMatchObject({ queueId: null, flowId });

    // The agent opens the ticket's contact drawer: its Flow section shows the flow asking its question.
    await page.goto(`/tickets/${(await ticketOf())!.uuid}`);
    await page.getByRole('button', { name: 'Contact details' }).click();
    const flowSection = page.getByRole('region', { name: 'Flow' });
    await flowSection.getByText('Promo da loja').waitFor();
    await flowSection.getByText('Waiting for an answer').waitFor();
    await flowSection.getByText('Step: Qual é o seu e-mail?').waitFor();
    await flowSection.getByText('No answers yet.').waitFor();
    await flowSection.getByRole('button', { name: 'Stop flow' }).waitFor();

    // The answer goes on to the ticket node, which moves the ticket to the queue.
    await simulator('POST', '/simulator/messages', { connectionId: connection.id, ...CUSTOMER, body: 'marina@exemplo.com' });
    // The open drawer shows it as it arrives, under its name, and how the flow ended.
    const answers = flowSection.getByRole('definition');
    await answers.getByText('marina@exemplo.com', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await flowSection.getByRole('term').allTextContents()).toEqual(['email_cliente']);
    await flowSection.getByText('Finished: handed over to the team').waitFor();
    expect(await flowSection.getByRole('button', { name: 'Stop flow' }).count()).toBe(0);
    await shot(page, 'flows-drawer-answers');
    await expect.poll(async () => (await ticketOf())?.queueId, { timeout: 15_000 }).toBe(queue.id);
    // The ticket node ends the flow: the ticket no longer shows a flow step.
    const served = (await ticketOf())!;
    expect(served).toMatchObject({ queueId: queue.id, flowId: null });

    // The answer is kept under its name in the run, which REST shows to the agents.
    const { run } = await admin<{ run: { flowId: number; status: string; endReason: string; variables: Record<string, string> } }>('GET', `/tickets/${served.id}/flow`);
    expect(run).toMatchObject({ flowId, status: 'finished', endReason: 'handover', variables: { email_cliente: 'marina@exemplo.com' } });

    // Done with them: the phrase campaign, then its flow, deleted from their lists once confirmed.
    await page.goto('/phrase-lists');
    await page.getByRole('button', { name: 'Delete Promoção' }).click();
    await page.getByRole('dialog', { name: 'Delete phrase campaign' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Phrase deleted').waitFor();
    await page.getByRole('cell', { name: 'Promoção', exact: true }).waitFor({ state: 'detached' });
    expect((await admin<{ list: { flowId: number }[] }>('GET', '/flowcampaign')).list.filter((c) => c.flowId === flowId)).toEqual([]);
    await page.goto('/flowbuilders');
    await page.getByRole('button', { name: 'Actions for Promo da loja' }).click();
    // Every action of the row's menu is on screen and takes the pointer: the table card around it
    // clipped the menu to its first two entries (a click landed on the page behind).
    for (const name of ['Edit name', 'Edit flow', 'Duplicate', 'Delete']) {
      const hit = await page.getByRole('menuitem', { name }).evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.bottom <= window.innerHeight && el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
      });
      expect(hit, name).toBe(true);
    }
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete flow' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Flow deleted successfully').waitFor();
    await page.getByRole('cell', { name: 'Promo da loja', exact: true }).waitFor({ state: 'detached' });
    expect((await admin<{ flows: { id: number }[] }>('GET', '/flowbuilder')).flows.map((f) => f.id)).not.toContain(flowId);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('uploads an image into an image step, saves, and the customer receives that image', async () => {
    const { context, page, errors } = await addFlow('Cardápio do dia');
    await page.getByRole('cell', { name: 'Cardápio do dia', exact: true }).click();
    await page.waitForURL(/\/flowbuilder\/\d+$/);
    const flowId = Number(new URL(page.url()).pathname.split('/').at(-1));
    const start = page.locator('.react-flow__node-start');
    await start.waitFor();

    // The image goes up to the real server as the dialog's file is chosen.
    await addStep(page, 'Image', async (d) => {
      await d.getByLabel('File').setInputFiles({ name: 'cardapio.png', mimeType: 'image/png', buffer: PNG });
      await d.getByText('File: cardapio.png').waitFor();
      await d.getByLabel('Caption (optional)').fill('O cardápio de hoje');
    });
    const img = page.locator('.react-flow__node-img');
    await connect(page, start.locator('.react-flow__handle.source'), img);
    await page.waitForFunction(() => document.querySelectorAll('.react-flow__edge').length === 1);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Flow saved successfully').waitFor();
    const saved = (await admin<{ flow: { flow: Graph } }>('GET', `/flowbuilder/flow/${flowId}`)).flow.flow;
    const url = saved.nodes.find((n) => n.type === 'img')!.data.url as string;
    expect(url).toMatch(/cardapio\.png$/);
    // The stored file is the one chosen, byte for byte.
    const mediaDir = e2e.server.deps.config.mediaDir;
    const stored = (await readdir(mediaDir, { recursive: true })).find((f) => f.endsWith(`flows/${url}`));
    expect(stored).toBeDefined();
    expect(await readFile(path.join(mediaDir, stored!))).toEqual(PNG);

    await admin('POST', '/flowcampaign', { name: 'Cardápio', flowId, whatsappId: connection.id, phrase: 'cardapio' });
    await simulator('POST', '/simulator/messages', { connectionId: connection.id, from: FOODIE.from, name: FOODIE.name, body: 'Cardápio' });
    const sent = () => simulator<{ body: string; mediaType?: string; fileName?: string }[]>('GET', `/simulator/outbox?connectionId=${connection.id}&to=${FOODIE.from}`);
    await expect.poll(sent, { timeout: 15_000 }).toEqual([expect.objectContaining({ body: 'O cardápio de hoje', mediaType: 'image', fileName: 'cardapio.png' })]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows another admin's new and renamed flows and phrase campaigns without a reload", async () => {
    const { context, page } = await newPage(e2e, { width: 1280, height: 800 });
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await login(page, DEMO.admin, e2e.demoPassword);
    await page.goto('/flowbuilders');
    await page.getByRole('heading', { name: 'Conversation flows' }).waitFor();
    const { id } = await admin<{ id: number }>('POST', '/flowbuilder', { name: 'Feito por outro' });
    await page.getByRole('cell', { name: 'Feito por outro', exact: true }).waitFor({ timeout: 10_000 });
    await admin('PUT', '/flowbuilder', { flowId: id, name: 'Renomeado por outro' });
    await page.getByRole('cell', { name: 'Renomeado por outro', exact: true }).waitFor({ timeout: 10_000 });

    await page.goto('/phrase-lists');
    await page.getByRole('heading', { name: 'Campaign flows (phrases)' }).waitFor();
    await admin('POST', '/flowcampaign', { name: 'Palavra de outro', flowId: id, whatsappId: connection.id, phrase: 'outro' });
    const row = page.getByRole('row', { name: /Palavra de outro/ });
    await row.waitFor({ timeout: 10_000 });
    // The flow's name, as the list of flows has it now.
    await admin('PUT', '/flowbuilder', { flowId: id, name: 'Outro nome' });
    await row.getByText('Outro nome').waitFor({ timeout: 10_000 });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a dragged node moves exactly as far as the pointer, and a click on a node changes nothing', async () => {
    // A small flow: fitted at zoom 1, so a pixel of the screen is a unit of the flow.
    const nodes = [
      { id: '1', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Inicio' } },
      { id: 'm1', type: 'message', position: { x: 300, y: 40 }, data: { label: 'Arraste-me' } },
    ];
    const { id, context, page, errors } = await openSavedFlow('Arrastar', nodes);
    const message = page.locator('.react-flow__node[data-id="m1"]');
    await message.getByText('Arraste-me').waitFor();
    expect(await page.locator('.react-flow__viewport').evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).a)).toBe(1);
    // Where React Flow placed the node, in the flow's coordinates (to a thousandth: float noise aside).
    const round = (v: number) => Math.round(v * 1000) / 1000;
    const position = () => message.evaluate((el) => {
        const m = new DOMMatrix(getComputedStyle(el).transform);
        return { x: m.e, y: m.f };
      }).then((p) => ({ x: round(p.x), y: round(p.y) }));
    expect(await position()).toEqual({ x: 300, y: 40 });

    // A click selects it, and is neither a change to save nor an undo step.
    await message.getByText('Arraste-me').click();
    expect(await page.getByText('Unsaved changes').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Undo' }).isDisabled()).toBe(true);

    // Dragged by (37, 23) px in 10 steps (the first one 3.7 px): the node moves (37, 23), to the pixel.
    const b = (await message.getByText('Arraste-me').boundingBox())!;
    const grab = { x: Math.round(b.x + b.width / 2), y: Math.round(b.y + b.height / 2) };
    await page.mouse.move(grab.x, grab.y);
    await page.mouse.down();
    await page.mouse.move(grab.x + 37, grab.y + 23, { steps: 10 });
    await page.mouse.up();
    expect(await position()).toEqual({ x: 337, y: 63 });
    await page.getByText('Unsaved changes').waitFor();
    // One undo step: back where it was; saved where it was dropped.
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(position).toEqual({ x: 300, y: 40 });
    await page.getByRole('button', { name: 'Redo' }).click();
    await expect.poll(position).toEqual({ x: 337, y: 63 });
    // Unsaved work is not dropped without asking: leaving waits for the answer, and Cancel stays.
    await page.getByRole('link', { name: 'Back to the flows' }).click();
    const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
    await leave.waitFor();
    await leave.getByRole('button', { name: 'Cancel' }).click();
    await leave.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe(`/flowbuilder/${id}`);
    expect(await position()).toEqual({ x: 337, y: 63 });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Flow saved successfully').waitFor();
    const saved = (await admin<{ flow: { flow: { nodes: { id: string; position: { x: number; y: number } }[] } } }>('GET', `/flowbuilder/flow/${id}`)).flow.flow;
    expect(saved.nodes.find((n) => n.id === 'm1')!.position).toEqual({ x: 337, y: 63 });
    // Saved, it leaves without a question.
    await page.getByRole('link', { name: 'Back to the flows' }).click();
    await page.waitForURL('**/flowbuilders');
    expect(await page.getByRole('dialog', { name: 'Leave without saving?' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a step added past the edge of the canvas is brought into view', async () => {
    // Fitted at zoom 1, the last node ends near the canvas's right edge: the next goes right of it (spec/03 §4).
    const nodes = [
      { id: '1', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Inicio' } },
      { id: 'm1', type: 'message', position: { x: 900, y: 0 }, data: { label: 'Na borda' } },
    ];
    const { context, page, errors } = await openSavedFlow('Na borda', nodes);
    await page.locator('.react-flow__node[data-id="m1"]').getByText('Na borda').waitFor();
    await page.getByRole('button', { name: 'Add a step' }).click();
    await page.getByRole('navigation', { name: 'Add a step' }).getByRole('button', { name: 'Message', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Message').fill('Depois da borda');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    const added = page.locator('.react-flow__node-message').filter({ hasText: 'Depois da borda' });
    await added.waitFor();
    const pane = (await page.locator('.react-flow').boundingBox())!;
    // The pan is animated (200 ms): the node ends inside the canvas, whole.
    await expect
      .poll(async () => {
        const b = (await added.boundingBox())!;
        return b.x >= pane.x && b.x + b.width <= pane.x + pane.width && b.y >= pane.y && b.y + b.height <= pane.y + pane.height;
      })
      .toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a large flow fitted to the screen draws its nodes as an overview, and as cards once zoomed in', async () => {
    // 120 messages in a 12 × 10 grid: fitted, far below the zoom at which a card can be read.
    const nodes = [{ id: '1', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Inicio' } }];
    const connections: { id: string; source: string; target: string; sourceHandle: string; type: string }[] = [];
    for (let i = 1; i < 120; i++) {
      nodes.push({ id: `m${i}`, type: 'message', position: { x: (i % 12) * 300, y: Math.floor(i / 12) * 260 }, data: { label: `Mensagem ${i}` } });
      connections.push({ id: `e${i}`, source: nodes[i - 1]!.id, target: `m${i}`, sourceHandle: 'a', type: 'buttonedge' });
    }
    const { id } = await admin<{ id: number }>('POST', '/flowbuilder', { name: 'Visão geral' });
    await admin('POST', '/flowbuilder/flow', { idFlow: id, nodes, connections });

    const { context, page } = await newPage(e2e, { width: 1280, height: 800 });
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await login(page, DEMO.admin, e2e.demoPassword);
    await page.goto(`/flowbuilder/${id}`);
    await page.waitForFunction(() => document.querySelectorAll('.react-flow__node').length === 120);
    // Nodes and edges nobody is handling are painted on one canvas: React Flow draws no edge, and a
    // node's DOM is an empty box with its handles where the painted ones are.
    await page.getByTestId('flow-overview-canvas').waitFor({ state: 'attached' });
    expect(await page.locator('.react-flow__edge').count()).toBe(0);
    const first = page.getByTestId('flow-node-message').first();
    await expect.poll(() => first.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);
    expect(await page.getByText('Mensagem 7', { exact: true }).count()).toBe(0);
    // No dot grid under the overview (a dense texture there, and costly to repaint while dragging).
    expect(await page.locator('.react-flow__background').count()).toBe(0);
    // Fitted clear of what floats on the canvas: no node opens under the minimap (bottom right), the
    // zoom controls or the floating menu, where nobody could see or grab it without panning.
    const overlaid = async () => {
      const panels = await page.locator('.react-flow__panel').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
      const boxes = await page.locator('.react-flow__node').evaluateAll((els) => els.map((e) => ({ id: e.getAttribute('data-id'), r: e.getBoundingClientRect().toJSON() as DOMRect })));
      const over = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      return { panels: panels.length, under: boxes.filter((b) => panels.some((p) => p.width > 0 && over(b.r, p))).map((b) => b.id) };
    };
    expect(await overlaid()).toEqual({ panels: 3, under: [] });
    await shot(page, 'flows-overview');

    const node = (id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
    const box = async (l: Locator) => (await l.boundingBox())!;
    const centre = (b: { x: number; y: number; width: number; height: number }) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });
    // Dragged, a node follows the mouse and draws itself (selected), with its edges, its handles where
    // the painted ones were (the edges' ends do not jump).
    const handleAt = async (id: string) => {
      const [n, h] = [await box(node(id)), await box(node(id).locator('.react-flow__handle.target'))];
      return { x: h.x - n.x, y: h.y - n.y, width: h.width };
    };
    const painted = await handleAt('m14');
    const before = await box(node('m14'));
    await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2);
    await page.mouse.down();
    await page.mouse.move(before.x + before.width / 2 + 40, before.y + before.height / 2 + 30, { steps: 8 });
    await page.mouse.up();
    // The node moved as far as the pointer did (the drag starts where the button went down).
    expect((await box(node('m14'))).x - before.x).toBeCloseTo(40, 1);
    expect((await box(node('m14'))).y - before.y).toBeCloseTo(30, 1);
    await node('m14').getByText('Message', { exact: true }).waitFor();
    const drawn = await handleAt('m14');
    for (const k of ['x', 'y', 'width'] as const) expect(drawn[k]).toBeCloseTo(painted[k], 1);
    expect(await page.locator('.react-flow__edge').count()).toBe(2);
    // A painted edge is picked by a click on its line (between m1's output and m2's input), then removed with Delete.
    const [out1, in2] = [centre(await box(node('m1').locator('.react-flow__handle.source'))), centre(await box(node('m2').locator('.react-flow__handle.target')))];
    const pane = page.locator('.react-flow__pane');
    await page.mouse.move((out1.x + in2.x) / 2, (out1.y + in2.y) / 2 - 40);
    expect(await pane.evaluate((el) => getComputedStyle(el).cursor)).not.toBe('pointer');
    await page.mouse.move((out1.x + in2.x) / 2, (out1.y + in2.y) / 2);
    expect(await pane.evaluate((el) => getComputedStyle(el).cursor)).toBe('pointer');
    await page.mouse.click((out1.x + in2.x) / 2, (out1.y + in2.y) / 2);
    await page.getByRole('button', { name: 'Delete connection' }).waitFor();
    expect(await page.locator('.react-flow__edge.selected').count()).toBe(1);
    await page.keyboard.press('Delete');
    await expect.poll(() => page.getByRole('button', { name: 'Delete connection' }).count()).toBe(0);
    // An edge drawn from a painted node's output to a painted node's input (it replaces m20 → m21: one edge per output).
    await connect(page, node('m20').locator('.react-flow__handle.source'), node('m40'));
    // A double click opens a painted node's dialog; a selected painted node is deleted with Backspace, and undone.
    await page.mouse.dblclick(centre(await box(node('m50'))).x, centre(await box(node('m50'))).y);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await node('m60').click();
    await page.keyboard.press('Backspace');
    await expect.poll(() => page.locator('.react-flow__node').count()).toBe(119);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => page.locator('.react-flow__node').count()).toBe(120);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Flow saved successfully').waitFor();
    const saved = (await admin<{ flow: { flow: Graph } }>('GET', `/flowbuilder/flow/${id}`)).flow.flow;
    expect(saved.connections.length).toBe(118);
    expect(saved.connections.filter((c) => (c.source === 'm1' && c.target === 'm2') || (c.source === 'm20' && c.target === 'm21'))).toEqual([]);
    expect(saved.connections.some((c) => c.source === 'm20' && c.target === 'm40')).toBe(true);

    // Zoomed in (the canvas controls), the cards come back with their text and buttons.
    for (let i = 0; i < 6; i++) await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByText(/^Mensagem \d+$/).first().waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Edit', exact: true }).count()).toBeGreaterThan(0);
    expect(await page.locator('.react-flow__edge').count()).toBe(118);
    expect(await page.locator('.react-flow__background').count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
