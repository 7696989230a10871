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
import type { Page } from 'playwright-core';
import { tenant } from '../server/src/db/tenant.ts';
import { ADMIN_PASSWORD, apiAs, DEMO, login, newPage, startE2E, type E2E } from '../e2e/harness.ts';

const SENDS = Number(process.env.BENCH_SENDS ?? 30);
const LIST_TICKETS = Number(process.env.BENCH_TICKETS ?? 2000);
const CHAT_MESSAGES = Number(process.env.BENCH_MESSAGES ?? 5000);
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

// Scrolls an element 150 px per animation frame for `frames` frames (down, then back up) and
// returns the frame intervals: what a user flicking through the list would see.
const SCROLL_PROBE = `([selector, frames]) => new Promise((resolve) => {
  const el = document.querySelector(selector);
  const gaps = [];
  let last = performance.now(), n = 0;
  const step = (now) => {
    gaps.push(now - last); last = now;
    el.scrollTop += n < frames / 2 ? 150 : -150;
    if (++n < frames) requestAnimationFrame(step); else resolve(gaps.slice(1));
  };
  requestAnimationFrame(step);
})`;

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number };

/** BENCH_PROFILE=1: a CPU profile of the page while it scrolls, its top self-time functions on stderr. */
async function scrollFrames(page: Page, selector: string, frames = 120) {
  const cdp = process.env.BENCH_PROFILE ? await page.context().newCDPSession(page) : undefined;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }
  const gaps = (await page.evaluate(`(${SCROLL_PROBE})(${JSON.stringify([selector, frames])})`)) as number[];
  if (cdp) {
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: { nodes: ProfileNode[] } };
    const self = new Map<string, number>();
    for (const n of profile.nodes) {
      const name = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
      self.set(name, (self.get(name) ?? 0) + (n.hitCount ?? 0));
    }
    const total = [...self.values()].reduce((a, b) => a + b, 0);
    console.error(selector, [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, v]) => `${((100 * v) / total).toFixed(1)}% ${k}`).join('\n'));
  }
  return { frameMs: stats(gaps), framesOver33ms: gaps.filter((g) => g > 33.4).length, frames: gaps.length };
}

/** 2,000 pending tickets in Sales (fresh contacts) and one open ticket of the admin's with 5,000 messages. */
async function seedLargeLists(e2e: E2E, connectionId: number) {
  const db = e2e.server.deps.db;
  const company = await db.selectFrom('companies').select('id').where('name', '=', 'Demo Company').executeTakeFirstOrThrow();
  const t = tenant(db, company.id);
  const sales = await t.selectFrom('queues').select('queues.id').where('queues.name', '=', 'Sales').executeTakeFirstOrThrow();
  const ana = await t.selectFrom('users').select('users.id').where('users.email', '=', DEMO.admin).executeTakeFirstOrThrow();
  const chunks = <T>(xs: T[], n = 200) => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));
  const numbers = Array.from({ length: LIST_TICKETS + 1 }, (_, i) => `55119${String(i).padStart(8, '0')}`);
  const contacts: { id: number }[] = [];
  for (const part of chunks(numbers)) {
    contacts.push(...(await t.insertInto('contacts', part.map((number, i) => ({ name: `Load ${number.slice(-4)} ${i}`, number }))).returning('contacts.id').execute()));
  }
  const base = Date.now() - 10 * 24 * 3600_000;
  const tickets = contacts.map((c, i) => ({
    uuid: crypto.randomUUID(),
    contactId: c.id,
    status: i === 0 ? 'open' : 'pending',
    userId: i === 0 ? ana.id : null,
    queueId: sales.id,
    whatsappId: connectionId,
    lastMessage: `message of ticket ${i}`,
    lastInteractionAt: new Date(base + i * 60_000).toISOString(),
  }));
  const ids: number[] = [];
  for (const part of chunks(tickets)) ids.push(...(await t.insertInto('tickets', part).returning('tickets.id').execute()).map((r) => r.id));
  const chatTicket = { id: ids[0]!, contactId: contacts[0]!.id, name: `Load ${numbers[0]!.slice(-4)} 0` };
  const messages = Array.from({ length: CHAT_MESSAGES }, (_, i) => ({
    wid: `bench-${i}`,
    ticketId: chatTicket.id,
    contactId: chatTicket.contactId,
    whatsappId: connectionId,
    body: i % 3 === 0 ? `A longer message number ${i}, wrapping over a couple of lines in the bubble so that the rows have different heights.` : `message ${i}`,
    fromMe: i % 2,
    ack: 3,
    read: 1,
    createdAt: new Date(base + i * 120_000).toISOString(),
  }));
  for (const part of chunks(messages)) await t.insertInto('messages', part).execute();
  return chatTicket;
}

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

    // 3. Large lists: 2,000 tickets in the list, a chat of 5,000 messages (all pages loaded).
    const chatTicket = await seedLargeLists(e2e, connectionId);
    const big = await newPage(e2e, { width: 1400, height: 900 });
    await login(big.page, DEMO.admin, e2e.demoPassword);
    const t0 = performance.now();
    await big.page.goto('/tickets');
    // Ready when the Waiting count includes every seeded ticket.
    const waitingTab = big.page.getByRole('tab', { name: /^Waiting \(\d+\)$/ });
    await big.page.waitForFunction(
      (min) => [...document.querySelectorAll('[role=tab]')].some((el) => Number(/^Waiting \((\d+)\)$/.exec(el.textContent ?? '')?.[1] ?? 0) >= min),
      LIST_TICKETS,
      { timeout: 60_000 },
    );
    await waitingTab.click();
    const listReadyMs = performance.now() - t0;
    const listLabel = await big.page.getByRole('tab', { name: /^Waiting/ }).textContent();
    const listDomRows = await big.page.getByTestId('ticket-item').count();
    const listScroll = await scrollFrames(big.page, '[data-testid="ticket-list"]');

    await big.page.getByRole('tab', { name: /^Attending/ }).click();
    await big.page.getByTestId('ticket-item').filter({ hasText: chatTicket.name }).getByRole('button', { name: chatTicket.name }).click();
    const chatScroller = '[data-testid="chat-scroll"]';
    await big.page.locator(`${chatScroller} [data-message-id]`).first().waitFor();
    const c0 = performance.now();
    let pages = 0;
    // Scroll to the top until the first message's "conversation started" mark is there.
    while (!(await big.page.getByText('Conversation started').count())) {
      const before = await big.page.evaluate(`document.querySelector('${chatScroller}').scrollHeight`);
      await big.page.evaluate(`document.querySelector('${chatScroller}').scrollTop = 0`);
      await big.page
        .waitForFunction(`document.querySelector('${chatScroller}').scrollHeight !== ${before} || !!document.evaluate("//*[text()='Conversation started']", document, null, 9, null).singleNodeValue`, undefined, { timeout: 20_000 })
        .catch(async (err: unknown) => {
          const state = await big.page.evaluate(`(() => { const el = document.querySelector('${chatScroller}'); return { top: el.scrollTop, height: el.scrollHeight, bubbles: el.querySelectorAll('[data-message-id]').length, text: el.textContent.slice(0, 200) }; })()`);
          console.error('chat did not grow', pages, before, JSON.stringify(state));
          throw err;
        });
      pages++;
    }
    const allLoadedMs = performance.now() - c0;
    const chatDomBubbles = await big.page.locator(`${chatScroller} [data-message-id]`).count();
    const chatScroll = await scrollFrames(big.page, chatScroller, 240);
    await big.context.close();
    const largeLists = {
      tickets: { seeded: LIST_TICKETS, tabLabel: listLabel, readyMsFromNavigation: Math.round(listReadyMs), domRows: listDomRows, scroll: listScroll },
      chat: { seeded: CHAT_MESSAGES, olderPageLoads: pages, allPagesLoadedMs: Math.round(allLoadedMs), domBubbles: chatDomBubbles, scroll: chatScroll },
    };
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
        largeLists,
        loadavg: loadavg().map((x) => Number(x.toFixed(2))),
      }),
    );
  } finally {
    await e2e.close();
  }
}

await main();
