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
    if (req.method() !== 'GET') posted.push({ path: `${req.method()} ${p}`, body: req.postDataJSON?.() ?? null });
    if (p === '/flowbuilder' && req.method() === 'GET') return json({ flows });
    if (p === `/flowbuilder/flow/${FLOW_ID}`) return json({ flow: { id: FLOW_ID, name: 'Atendimento Loja', flow: saved } });
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

  // The palette's interval dialog refuses 130 s (spec/03 §5).
  await page.getByRole('button', { name: 'Add a step' }).click();
  await shot('palette');
  await page.getByRole('navigation', { name: 'Add a step' }).getByRole('button', { name: 'Interval' }).click();
  await page.getByRole('dialog').getByLabel('Seconds').fill('130');
  await page.getByRole('dialog').getByRole('button', { name: 'Add' }).click();
  await page.getByText('Maximum time reached: 120 seconds').waitFor();
  await shot('dialog-interval');
  await page.getByRole('button', { name: 'Cancel' }).click();

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

  assert.deepEqual(errors, []);
  console.log(JSON.stringify({ ok: true, shots: SHOTS_DIR, posted: api.posted.map((p) => p.path) }));
} finally {
  await e2e.close();
}
