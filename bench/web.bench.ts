// Web budget (issue 6): (1) the JavaScript /login needs before it renders, gzip-compressed, both as
// the static module graph of index.html and as what Chromium actually fetched until the login form
// showed (budget 200 KB gzip); (2) "a local mutation paints in the same frame": in Chromium, an
// attendant sends chat messages and the page measures, from the Enter keydown, the time and the
// number of animation frames until the bubble is in the DOM and until the frame after it (painted).
// Runs the real server (e2e harness: fresh SQLite, demo seed, simulator). Prints one JSON object.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { ADMIN_PASSWORD, apiAs, DEMO, login, newPage, startE2E } from '../e2e/harness.ts';

const SENDS = Number(process.env.BENCH_SENDS ?? 30);
const BUDGET_GZIP_BYTES = 200 * 1024;
const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '../web/dist');

const gz = (file: string) => gzipSync(readFileSync(path.join(dist, file))).length;
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Number(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(2)) : null;
};
const stats = (xs: number[]) => ({ n: xs.length, p50: percentile(xs, 50), p95: percentile(xs, 95), max: percentile(xs, 100) });

/** index.html's entry scripts and modulepreloads, then every static import they make (not import()). */
function staticGraph(): string[] {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const queue = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  const seen = new Set<string>();
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(path.join(dist, file), 'utf8');
    // Static imports only: `import{a}from"./x.js"`, `import"./x.js"`, `export*from"./x.js"`.
    for (const m of code.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["'](\.\/[^"']+\.js)["']/g)) {
      queue.push(path.posix.join(path.posix.dirname(file), m[1]!));
    }
  }
  return [...seen];
}

// Runs in the page (a string, so the bundler's helpers never reach it): waits for the Enter keydown,
// counts animation frames from it, and resolves when the bubble's text is in the chat log.
const PROBE = `(wanted) => new Promise((resolve) => {
  const log = document.querySelector('[data-testid="chat-scroll"]');
  const box = document.querySelector('textarea');
  let t0 = 0, frames = 0, counting = true;
  const tick = () => { if (!counting) return; frames++; requestAnimationFrame(tick); };
  box.addEventListener('keydown', () => { t0 = performance.now(); requestAnimationFrame(tick); }, { capture: true, once: true });
  const observer = new MutationObserver(() => {
    if (!t0 || !log.textContent.includes(wanted)) return;
    observer.disconnect();
    const dom = performance.now() - t0;
    const before = frames;
    counting = false;
    // The frame after the insertion is the one that paints it.
    requestAnimationFrame(() => resolve({ dom, paint: performance.now() - t0, frames: before }));
  });
  observer.observe(log, { childList: true, subtree: true, characterData: true });
})`;

async function main() {
  const e2e = await startE2E();
  try {
    // 1. /login's JavaScript.
    const graph = staticGraph();
    const { context: loginContext, page: loginPage } = await newPage(e2e);
    const fetched = new Set<string>();
    loginPage.on('response', (r) => {
      const url = new URL(r.url());
      if (url.pathname.endsWith('.js')) fetched.add(url.pathname.replace(/^\//, ''));
    });
    await loginPage.goto('/login');
    await loginPage.locator('input[name=password]').waitFor();
    await loginContext.close();
    const sum = (files: Iterable<string>) => [...files].reduce((n, f) => n + gz(f), 0);
    const loginJs = {
      staticGraphFiles: graph.length,
      staticGraphGzipBytes: sum(graph),
      fetchedBeforeLoginRenders: [...fetched].sort(),
      fetchedGzipBytes: sum(fetched),
      budgetGzipBytes: BUDGET_GZIP_BYTES,
      withinBudget: sum(fetched) <= BUDGET_GZIP_BYTES && sum(graph) <= BUDGET_GZIP_BYTES,
    };

    // 2. Send → bubble. A customer writes (driven by the super-admin), the attendant accepts in the browser.
    const simulator = await apiAs(e2e, DEMO.superAdmin, ADMIN_PASSWORD);
    const admin = await apiAs(e2e, DEMO.admin, e2e.demoPassword);
    const connectionId = (await admin<{ id: number }[]>('GET', '/whatsapp'))[0]!.id;
    const customer = { connectionId, from: '5511900077777', name: 'Bench Customer' };
    await simulator('POST', '/simulator/messages', { ...customer, body: 'Hello' });
    await simulator('POST', '/simulator/messages', { ...customer, body: '1' });

    const { context, page } = await newPage(e2e);
    await login(page, DEMO.attendant, e2e.demoPassword);
    await page.goto('/tickets');
    await page.getByRole('tab', { name: /^Waiting/ }).click();
    await page.getByTestId('ticket-item').filter({ hasText: customer.name }).getByRole('button', { name: 'Accept' }).click();
    const input = page.getByRole('textbox', { name: 'Type a message, or / for quick answers' });
    await input.waitFor();
    await page.getByTestId('chat').getByText('Hello', { exact: true }).waitFor();

    const toDom: number[] = [];
    const toPaint: number[] = [];
    const framesToDom: number[] = [];
    for (let i = 0; i < SENDS; i++) {
      const text = `bench message ${i} ${Date.now()}`;
      await input.fill(text);
      const probe = page.evaluate(`(${PROBE})(${JSON.stringify(text)})`) as Promise<{ dom: number; paint: number; frames: number }>;
      await input.press('Enter');
      const r = await probe;
      toDom.push(r.dom);
      toPaint.push(r.paint);
      framesToDom.push(r.frames);
      // Let the server confirm before the next send, as a person typing would.
      await page.getByTestId('chat').locator('[data-from-me="true"]').filter({ hasText: text }).locator('[data-tick="sent"], [data-tick="delivered"], [data-tick="read"]').waitFor();
    }
    await context.close();
    const sameFrame = framesToDom.filter((f) => f === 0).length;
    console.log(
      JSON.stringify({
        loginJs,
        sendToBubble: {
          what: 'Enter keydown → bubble text in the chat DOM (MutationObserver), and → the next animation frame after it (painted); frames = animation frames that ran before the insertion',
          sends: SENDS,
          keydownToDomMs: stats(toDom),
          keydownToPaintMs: stats(toPaint),
          framesBeforeDom: stats(framesToDom),
          insertedBeforeNextFrame: `${sameFrame}/${SENDS}`,
        },
        loadavg: loadavg().map((x) => Number(x.toFixed(2))),
      }),
    );
  } finally {
    await e2e.close();
  }
}

await main();
