// Flow editor benchmark (issue 15's editor figures): a 300-node flow (a chain of messages, menus and
// intervals laid out in a grid) saved through the real API, then opened in Chromium by an admin of the
// real server and web app (e2e harness: fresh SQLite, demo seed). Reports:
// - open: from navigating to /flowbuilder/{id} until all 300 nodes are in the DOM, as measured, and
//   without the 500 ms the spec has the editor wait before it loads a flow (spec/03 §9);
// - drag: the animation frame times while a node is dragged 300 px (60 mouse steps), BENCH_DRAGS
//   times (default 5) on different nodes, with the idle frame times of this headless, software-
//   rendered Chromium beside them as the baseline.
// Targets: open under 1 s, drag p95 frame under 20 ms. Prints one JSON object.
import { loadavg } from 'node:os';
import { apiAs, DEMO, login, newPage, startE2E } from '../e2e/harness.ts';

const NODES = 300;
const DRAGS = Number(process.env.BENCH_DRAGS ?? 5);
const SPEC_LOAD_DELAY_MS = 500;

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Number(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(1)) : null;
};
const stats = (xs: number[]) => ({ n: xs.length, p50: percentile(xs, 50), p95: percentile(xs, 95), max: percentile(xs, 100) });

/** Start, then a chain: every third node a menu (its first option leads on), then a message, then an interval. */
function bigFlow() {
  const nodes: { id: string; type: string; position: { x: number; y: number }; data: Record<string, unknown> }[] = [
    { id: '1', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Inicio do fluxo' } },
  ];
  const connections: { id: string; source: string; target: string; sourceHandle: string; type: string }[] = [];
  for (let i = 1; i < NODES; i++) {
    const id = `n${String(i).padStart(29, '0')}`;
    const kind = i % 3;
    const data = kind === 0 ? { message: `Menu ${i}`, arrayOption: [{ number: 1, value: 'Sim' }, { number: 2, value: 'Não' }] } : kind === 1 ? { label: `Mensagem ${i}` } : { sec: 5 };
    nodes.push({ id, type: kind === 0 ? 'menu' : kind === 1 ? 'message' : 'interval', position: { x: (i % 20) * 300, y: Math.floor(i / 20) * 260 }, data });
    const prev = nodes[i - 1]!;
    connections.push({ id: `e${i}`, source: prev.id, target: id, sourceHandle: prev.type === 'menu' ? 'a1' : 'a', type: 'buttonedge' });
  }
  return { nodes, connections };
}

const e2e = await startE2E();
try {
  const admin = await apiAs(e2e, DEMO.admin, e2e.demoPassword);
  const { id } = await admin<{ id: number }>('POST', '/flowbuilder', { name: 'Grande' });
  await admin('POST', '/flowbuilder/flow', { idFlow: id, ...bigFlow() });

  const { context, page } = await newPage(e2e, { width: 1440, height: 900 });
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await login(page, DEMO.admin, e2e.demoPassword);
  // The editor's code is fetched once before timing (as any admin who opened a page before).
  await page.goto('/flowbuilder');
  await page.getByRole('heading').first().waitFor();

  const t0 = performance.now();
  await page.goto(`/flowbuilder/${id}`);
  await page.waitForFunction((n) => document.querySelectorAll('.react-flow__node').length === n, NODES, { timeout: 30_000 });
  const openMs = performance.now() - t0;
  await page.waitForTimeout(500);

  // Frame times from requestAnimationFrame (a string: tsx's helpers do not exist in the page).
  await page.evaluate(`(() => {
    window.frames_ = [];
    window.stop_ = false;
    let last = performance.now();
    const tick = (now) => { window.frames_.push(now - last); last = now; if (!window.stop_) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  })()`);
  await page.waitForTimeout(1000);
  const idle = (await page.evaluate('(() => window.frames_.splice(0).slice(1))()')) as number[];
  const first = await page.locator('.react-flow__node').nth(20).boundingBox();
  const drags: number[] = [];
  for (let d = 0; d < DRAGS; d++) {
    const node = page.locator('.react-flow__node').nth(20 + d * 7);
    const box = await node.boundingBox();
    if (!box) throw new Error(`node ${20 + d * 7} is not on screen`);
    await page.evaluate('(() => { window.frames_ = []; })()');
    // Grabbed at its middle: in the overview a node is a few dozen px wide (its width follows the fitted zoom).
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 300, y + (d % 2 === 0 ? 200 : -120), { steps: 60 });
    await page.mouse.up();
    drags.push(...((await page.evaluate('(() => window.frames_.slice(1))()')) as number[]));
  }
  await page.evaluate('(() => { window.stop_ = true; })()');
  const moved = await page.locator('.react-flow__node').nth(20).boundingBox();
  await context.close();
  if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
  // The drags really moved the nodes (the first one 300 px to the right, as the mouse went).
  if (!first || !moved || Math.abs(moved.x - first.x - 300) > 30) throw new Error(`the dragged node did not follow the mouse: ${JSON.stringify({ first, moved })}`);

  const dragFrames = stats(drags);
  console.log(
    JSON.stringify({
      bench: 'flow-editor',
      nodes: NODES,
      open: { ms: Math.round(openMs), withoutSpecLoadDelayMs: Math.round(openMs - SPEC_LOAD_DELAY_MS), specLoadDelayMs: SPEC_LOAD_DELAY_MS, targetMs: 1000 },
      dragFrameMs: dragFrames,
      // Frames that missed the display's 16.7 ms (a p95 under 20 ms needs fewer than 5 % of them).
      dragFramesOver20Ms: Number((drags.filter((f) => f > 20).length / Math.max(1, drags.length)).toFixed(3)),
      idleFrameMs: stats(idle),
      drags: DRAGS,
      met: { open: openMs - SPEC_LOAD_DELAY_MS < 1000, dragP95: (dragFrames.p95 ?? Infinity) < 20 },
      loadavg: loadavg().map((l) => Number(l.toFixed(2))),
    }),
  );
} finally {
  await e2e.close();
}
