// A preview of the flow pages in Chromium while the server's flow routes are written elsewhere: the
// real server and web app (startE2E: login, session, sync, queues are real), with every /flowbuilder
// and /flowcampaign call answered by playwright route() fixtures shaped as spec/03 §7 says (a saved
// flow of 17 nodes: sync's support-flow fixture). It walks the list, the editor, a node dialog, the
// test panel and a save, asserts what a user would see, and writes screenshots to look at.
// Not a test file (no *.test.ts): run `node --import tsx e2e/flow-editor.preview.ts`; the lead turns
// it into the real e2e once the server lands (then drop the route() fixtures).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page, Route } from 'playwright-core';
import { flowSaveSchema } from '../sync/src/index.ts';
import { DEMO, login, newPage, SHOTS_DIR, startE2E } from './harness.ts';

const FLOW_ID = 7;
const fixture = JSON.parse(readFileSync(path.join(import.meta.dirname, '../sync/src/flow/fixtures/support-flow.json'), 'utf8')) as {
  nodes: { position: { x: number; y: number } }[];
  connections: unknown[];
};
// The fixture was drawn with the old 220×80 cards; spread it for ours (taller cards with their outputs).
const saved = {
  nodes: fixture.nodes.map((n) => ({ ...n, position: { x: Math.round(n.position.x * 1.2), y: Math.round(n.position.y * 1.7) } })),
  connections: fixture.connections,
};
/** A 300-node flow (issue 15's editor figure): a chain of messages, menus and intervals in a grid. */
const BIG_ID = 99;
const big = (() => {
  const nodes: unknown[] = [{ id: '1', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Inicio do fluxo' } }];
  const connections: unknown[] = [];
  for (let i = 1; i < 300; i++) {
    const id = `n${String(i).padStart(29, '0')}`;
    const kind = i % 3;
    const data = kind === 0 ? { message: `Menu ${i}`, arrayOption: [{ number: 1, value: 'Sim' }, { number: 2, value: 'Não' }] } : kind === 1 ? { label: `Mensagem ${i}` } : { sec: 5 };
    nodes.push({ id, type: kind === 0 ? 'menu' : kind === 1 ? 'message' : 'interval', position: { x: (i % 20) * 300, y: Math.floor(i / 20) * 260 }, data });
    const prev = nodes[i - 1] as { id: string; type: string };
    connections.push({ id: `e${i}`, source: prev.id, target: id, sourceHandle: prev.type === 'menu' ? 'a1' : 'a', type: 'buttonedge' });
  }
  return { nodes, connections };
})();

const flows = [
  { id: FLOW_ID, name: 'Atendimento Loja', active: true },
  { id: 8, name: 'Pós-venda', active: true },
  { id: 9, name: 'Pesquisa NPS', active: false },
];
const phrases = [
  { id: 1, name: 'Oi da loja', flowId: FLOW_ID, whatsappId: null, phrase: 'oi', status: true, matchMode: 'exact' },
  { id: 2, name: 'Promoção', flowId: 8, whatsappId: null, phrase: 'promoção', status: false, matchMode: 'contains' },
];

/** The flow REST of spec/03 §7 as fixtures; what the editor posts is kept for the checks. */
function fixtures(apiUrl: string, webUrl: string) {
  const cors = { 'access-control-allow-origin': new URL(webUrl).origin, 'access-control-allow-credentials': 'true', 'access-control-allow-headers': 'authorization, content-type', 'access-control-allow-methods': 'GET, POST, PUT, DELETE' };
  const posted: { path: string; body: unknown }[] = [];
  const handle = async (route: Route) => {
    const req = route.request();
    const url = new URL(req.url());
    const p = url.pathname;
    const json = (body: unknown) => route.fulfill({ status: 200, contentType: 'application/json', headers: cors, body: JSON.stringify(body) });
    if (req.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
    if (req.method() !== 'GET') {
      const type = req.headers()['content-type'] ?? '';
      posted.push({ path: `${req.method()} ${p}`, body: type.startsWith('multipart/') ? { multipart: [...(req.postData() ?? '').matchAll(/form-data; name="([^"]+)"/g)].map((m) => m[1]) } : (req.postDataJSON() as unknown) });
    }
    if (p === '/flowbuilder/img') return json('1764300000000-foto.png');
    if (p === '/flowbuilder' && req.method() === 'GET') return json({ flows });
    if (p === `/flowbuilder/flow/${FLOW_ID}`) return json({ flow: { id: FLOW_ID, name: 'Atendimento Loja', flow: saved } });
    if (p === `/flowbuilder/flow/${BIG_ID}`) return json({ flow: { id: BIG_ID, name: 'Grande', flow: big } });
    if (p === '/flowbuilder/flow') return json({ message: 'ok' });
    if (p === '/flowcampaign' && req.method() === 'GET') return json(phrases);
    return json({});
  };
  return { posted, install: (page: Page) => Promise.all([page.route(`${apiUrl}/flowbuilder**`, handle), page.route(`${apiUrl}/flowcampaign**`, handle)]) };
}

const e2e = await startE2E();
try {
  const { page } = await newPage(e2e, { width: 1440, height: 900 });
  const api = fixtures(e2e.apiUrl, e2e.webUrl);
  await api.install(page);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await login(page, DEMO.admin, e2e.demoPassword);
  const shot = (name: string) => page.screenshot({ path: path.join(SHOTS_DIR, `flow-${name}.png`) });

  // The list.
  await page.goto('/flowbuilders');
  await page.getByRole('cell', { name: 'Atendimento Loja', exact: true }).waitFor();
  await shot('list');
  await page.getByRole('button', { name: 'Add flow' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('a');
  await page.getByRole('dialog').getByRole('button', { name: 'Add' }).click();
  await page.getByRole('dialog').getByText('Too short!').waitFor();
  await page.getByRole('dialog').getByLabel('Name').fill('Boas-vindas');
  await page.getByRole('dialog').getByRole('button', { name: 'Add' }).click();
  await page.getByText('Flow created successfully').waitFor();
  assert.deepEqual(api.posted.at(-1), { path: 'POST /flowbuilder', body: { name: 'Boas-vindas' } });
  await page.getByRole('button', { name: 'Actions for Atendimento Loja' }).click();
  await page.getByRole('menuitem', { name: 'Duplicate' }).click();
  await page.getByText('Flow duplicated successfully').waitFor();
  assert.deepEqual(api.posted.at(-1), { path: 'POST /flowbuilder/duplicate', body: { flowId: FLOW_ID } });

  // The editor: the row opens it; the saved flow's 17 nodes are drawn after the load delay.
  await page.getByRole('cell', { name: 'Atendimento Loja', exact: true }).click();
  await page.waitForURL(`**/flowbuilder/${FLOW_ID}`);
  await page.locator('.react-flow__node').nth(16).waitFor();
  assert.equal(await page.locator('.react-flow__node').count(), 17);
  // Every drawn edge found its output handle (an edge whose handle is missing is not drawn).
  assert.equal(await page.locator('.react-flow__edge').count(), 19);
  // The menu draws its options, invalid and timeout outputs with the engine's ids.
  const menu = page.locator('.react-flow__node-menu');
  for (const id of ['a1', 'a2', 'a3', 'invalid', 'timeout']) assert.equal(await menu.locator(`.react-flow__handle[data-handleid="${id}"]`).count(), 1, id);
  await page.waitForTimeout(300);
  await shot('editor');
  // Closer: the start, the menu and its outputs at a readable zoom.
  await page.getByRole('button', { name: 'Zoom In' }).click();
  await page.getByRole('button', { name: 'Zoom In' }).click();
  await page.waitForTimeout(300);
  await shot('editor-zoom');
  await page.getByRole('button', { name: 'Fit View' }).click();

  // A click highlights a node (the others dim); a double click opens its dialog.
  await menu.click();
  await shot('editor-highlight');
  await menu.dblclick();
  await page.getByRole('dialog').waitFor();
  await shot('dialog-menu');
  await page.getByRole('button', { name: 'Cancel' }).click();

  // Delete removes the selected edge; undo brings it back; a node's delete takes its edges (spec/03 §2).
  await page.locator('.react-flow__pane').click({ position: { x: 900, y: 760 } });
  await page.locator('.react-flow__edge').first().click({ force: true });
  await page.keyboard.press('Delete');
  await page.waitForFunction(() => document.querySelectorAll('.react-flow__edge').length === 18);
  await page.getByRole('button', { name: 'Undo' }).click();
  await page.waitForFunction(() => document.querySelectorAll('.react-flow__edge').length === 19);
  await page.locator('.react-flow__node-menu').getByRole('button', { name: 'Delete' }).click();
  assert.equal(await page.locator('.react-flow__node').count(), 16);
  // The menu had 5 outputs drawn and one input: 6 edges went with it.
  assert.equal(await page.locator('.react-flow__edge').count(), 13);
  await page.getByRole('button', { name: 'Undo' }).click();
  await page.waitForFunction(() => document.querySelectorAll('.react-flow__edge').length === 19);
  await page.getByText('Unsaved changes').waitFor();

  // The palette's interval dialog refuses 130 s (spec/03 §5).
  await page.getByRole('button', { name: 'Add a step' }).click();
  await shot('palette');
  await page.getByRole('navigation', { name: 'Add a step' }).getByRole('button', { name: 'Interval' }).click();
  await page.getByRole('dialog').getByLabel('Seconds').fill('130');
  await page.getByRole('dialog').getByRole('button', { name: 'Add' }).click();
  await page.getByText('Maximum time reached: 120 seconds').waitFor();
  await shot('dialog-interval');
  await page.getByRole('button', { name: 'Cancel' }).click();

  // An image: refused above 2 MB, else uploaded at once (POST /flowbuilder/img) and kept on the node.
  await page.getByRole('button', { name: 'Add a step' }).click();
  await page.getByRole('navigation', { name: 'Add a step' }).getByRole('button', { name: 'Image' }).click();
  const file = page.getByRole('dialog').getByLabel('File');
  await file.setInputFiles({ name: 'grande.png', mimeType: 'image/png', buffer: Buffer.alloc(3 * 1024 * 1024) });
  await page.getByRole('dialog').getByText('File is too big! 2MB maximum').waitFor();
  await file.setInputFiles({ name: 'foto.png', mimeType: 'image/png', buffer: Buffer.from('89504e470d0a1a0a', 'hex') });
  await page.getByText('Image added successfully!').waitFor();
  assert.deepEqual(api.posted.at(-1), { path: 'POST /flowbuilder/img', body: { multipart: ['medias', 'body', 'fromMe'] } });
  await page.getByRole('dialog').getByText('File: foto.png').waitFor();
  await page.getByRole('dialog').getByRole('button', { name: 'Add' }).click();
  await page.locator('.react-flow__node').nth(17).waitFor();
  await page.locator('.react-flow__node-img').last().getByText('foto.png').waitFor();
  await page.getByRole('button', { name: 'Undo' }).click();
  await page.waitForFunction(() => document.querySelectorAll('.react-flow__node').length === 17);

  // The ticket dialog offers the company's queues (synced), and refuses none (spec/03 §5 'Adicione uma fila').
  await page.getByRole('button', { name: 'Add a step' }).click();
  await page.getByRole('navigation', { name: 'Add a step' }).getByRole('button', { name: 'Ticket' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Add' }).click();
  await page.getByRole('dialog').getByText('Add a queue').waitFor();
  assert.ok((await page.getByRole('dialog').getByLabel('Queue').locator('option').count()) > 1, 'the queues are offered');
  await shot('dialog-ticket');
  await page.getByRole('button', { name: 'Cancel' }).click();

  // The OpenAI and question dialogs of spec/03 §2.
  for (const [type, file] of [['OpenAI', 'dialog-openai'], ['Question', 'dialog-question']] as const) {
    await page.getByRole('button', { name: 'Add a step' }).click();
    await page.getByRole('navigation', { name: 'Add a step' }).getByRole('button', { name: type }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Add' }).click();
    await page.getByRole('dialog').getByText('Required').first().waitFor();
    await shot(file);
    await page.getByRole('button', { name: 'Cancel' }).click();
  }

  // The test panel plays the flow with the shared engine.
  await page.getByRole('button', { name: 'Test', exact: true }).click();
  const panel = page.getByRole('complementary', { name: 'Test the flow' });
  await panel.getByRole('button', { name: 'Start' }).click();
  await panel.getByText('1 - Comprar').waitFor();
  const say = async (text: string) => {
    await panel.getByPlaceholder('Type as the contact').fill(text);
    await panel.getByPlaceholder('Type as the contact').press('Enter');
  };
  await say('9');
  await panel.getByText('Opção inválida', { exact: false }).first().waitFor();
  await say('comprar');
  await panel.getByText('Qual é o seu nome?').waitFor();
  await say('Maria');
  await panel.getByText('Obrigado, Maria! Veja nossa tabela:').waitFor();
  await panel.getByRole('button', { name: /Skip the wait/ }).click();
  await panel.getByText(/moved to the queue/).waitFor();
  await shot('test-panel');

  // Save: the body is what flowSaveSchema accepts, and the toast says so.
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Flow saved successfully').waitFor();
  assert.equal(await page.getByText('Unsaved changes').count(), 0);
  const save = api.posted.find((p) => p.path === 'POST /flowbuilder/flow');
  assert.ok(save, 'the editor posted the flow');
  const parsed = flowSaveSchema.safeParse(save.body);
  assert.ok(parsed.success, JSON.stringify(!parsed.success && parsed.error.issues));
  assert.equal(parsed.data.graph.nodes.length, 17);

  // Phrase campaigns.
  await page.goto('/phrase-lists');
  await page.getByRole('cell', { name: 'Oi da loja', exact: true }).waitFor();
  await shot('phrases');
  await page.getByRole('button', { name: 'Add phrase' }).click();
  await page.getByRole('dialog').waitFor();
  await shot('phrase-dialog');
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.getByText('Choose a flow', { exact: true }).last().waitFor();
  await dialog.getByLabel('Name').fill('Cardápio');
  await dialog.getByLabel('Flow').selectOption({ label: 'Atendimento Loja' });
  await dialog.getByLabel('Phrase').fill(' cardápio ');
  await dialog.getByLabel('Matches when').selectOption('contains');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Phrase created successfully!').waitFor();
  assert.deepEqual(api.posted.at(-1), { path: 'POST /flowcampaign', body: { name: 'Cardápio', flowId: FLOW_ID, whatsappId: null, phrase: 'cardápio', matchMode: 'contains', status: true } });
  await page.getByRole('switch', { name: 'Turn Promoção on or off' }).click();
  await page.getByText('Phrase updated successfully!').waitFor();
  assert.deepEqual(api.posted.at(-1), { path: 'PUT /flowcampaign', body: { id: 2, name: 'Promoção', flowId: 8, whatsappId: null, phrase: 'promoção', matchMode: 'contains', status: true } });

  // Portuguese and dark: the spec's wording, a content dialog, the node the test conversation is at.
  const pt = await newPage(e2e, { width: 1440, height: 900, dark: true, language: 'pt' });
  await api.install(pt.page);
  await login(pt.page, DEMO.admin, e2e.demoPassword);
  await pt.page.goto(`/flowbuilder/${FLOW_ID}`);
  await pt.page.locator('.react-flow__node').nth(16).waitFor();
  await pt.page.getByText('Desenhe seu fluxo').waitFor();
  await pt.page.getByText('Não se esqueça de salvar seu fluxo!', { exact: false }).waitFor();
  await pt.page.locator('.react-flow__node-singleBlock').dblclick();
  await pt.page.getByRole('dialog').getByText('Editar Conteúdo').waitFor();
  await pt.page.screenshot({ path: path.join(SHOTS_DIR, 'flow-pt-dark-content-dialog.png') });
  await pt.page.getByRole('button', { name: 'Cancelar' }).click();
  await pt.page.getByRole('button', { name: 'Testar', exact: true }).click();
  await pt.page.getByRole('button', { name: 'Iniciar' }).click();
  await pt.page.getByPlaceholder('Digite como o contato').fill('1');
  await pt.page.getByPlaceholder('Digite como o contato').press('Enter');
  await pt.page.getByRole('complementary', { name: 'Testar o fluxo' }).getByText('Qual é o seu nome?').waitFor();
  await pt.page.screenshot({ path: path.join(SHOTS_DIR, 'flow-pt-dark-test.png') });
  await pt.context.close();
  // A phone: the editor and its test panel at 390 px.
  const phone = await newPage(e2e, { width: 390, height: 844 });
  await api.install(phone.page);
  await login(phone.page, DEMO.admin, e2e.demoPassword);
  await phone.page.goto(`/flowbuilder/${FLOW_ID}`);
  await phone.page.locator('.react-flow__node').nth(16).waitFor();
  await phone.page.screenshot({ path: path.join(SHOTS_DIR, 'flow-phone-editor.png') });
  await phone.page.getByRole('button', { name: 'Test', exact: true }).click();
  await phone.page.getByRole('button', { name: 'Start' }).click();
  await phone.page.screenshot({ path: path.join(SHOTS_DIR, 'flow-phone-test.png') });
  await phone.context.close();

  // One session per user: the other logins ended the first page's.
  await login(page, DEMO.admin, e2e.demoPassword);

  // 300 nodes: time to draw after the load (the editor waits 500 ms by spec), then a drag's frame times.
  const t0 = Date.now();
  await page.goto(`/flowbuilder/${BIG_ID}`);
  await page.waitForFunction(() => document.querySelectorAll('.react-flow__node').length === 300, undefined, { timeout: 30_000 }).catch(async (err: unknown) => {
    await page.screenshot({ path: path.join(SHOTS_DIR, 'flow-300-nodes-failed.png') });
    console.log('nodes drawn:', await page.locator('.react-flow__node').count());
    throw err;
  });
  const openMs = Date.now() - t0 - 500;
  await page.waitForTimeout(500);
  // A string, not a function: tsx's helpers (__name) do not exist in the page.
  await page.evaluate(`(() => {
    window.frames_ = [];
    window.stop_ = false;
    let last = performance.now();
    const tick = (now) => { window.frames_.push(now - last); last = now; if (!window.stop_) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  })()`);
  // Idle frames first: the baseline of this (software-rendered, headless) Chromium.
  await page.waitForTimeout(1000);
  const idle = (await page.evaluate('(() => window.frames_.splice(0).slice(1))()')) as number[];
  const p95Of = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)] ?? 0;
  const box = (await page.locator('.react-flow__node').nth(25).boundingBox())!;
  await page.mouse.move(box.x + 40, box.y + 10);
  await page.mouse.down();
  await page.mouse.move(box.x + 340, box.y + 210, { steps: 60 });
  await page.mouse.up();
  const frames = (await page.evaluate('(() => { window.stop_ = true; return window.frames_.slice(1); })()')) as number[];
  const p95 = p95Of(frames);
  await page.screenshot({ path: path.join(SHOTS_DIR, 'flow-300-nodes.png') });

  assert.deepEqual(errors, []);
  console.log(JSON.stringify({ ok: true, shots: SHOTS_DIR, posted: api.posted.map((p) => p.path), bigFlow: { nodes: 300, openMs, dragFrames: frames.length, dragP95FrameMs: Math.round(p95 * 10) / 10, idleP95FrameMs: Math.round(p95Of(idle) * 10) / 10 } }));
} finally {
  await e2e.close();
}
