// POST /contacts/import/file reads the multipart upload as it arrives (upload.ts): the import
// starts before the upload ends, any field order and chunking reads the same, a cut upload fails.
import type { ContactImportEvent } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedTenant } from '../../../test/seed.ts';

const BOUNDARY = 'zapdesk-test-boundary';
const csvRow = (i: number) => `Contact ${i};55119${String(70_000_000 + i)};c${i}@example.com\n`;

/** A request body the test writes by hand, chunk by chunk, while the server answers. */
function handBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const encoder = new TextEncoder();
  return { stream, write: (s: string) => controller.enqueue(encoder.encode(s)), end: () => controller.close() };
}

async function* ndjson(body: ReadableStream<Uint8Array>): AsyncGenerator<ContactImportEvent> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of body) {
    text += decoder.decode(chunk, { stream: true });
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n')) {
      yield JSON.parse(text.slice(0, nl)) as ContactImportEvent;
      text = text.slice(nl + 1);
    }
  }
}

describe.each(DIALECTS)('streamed import uploads on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  }, 180_000);
  afterAll(async () => t.close());

  // With its length, as clients send a file (app.ts holds a multipart body of unknown length whole).
  const post = (token: string, body: BodyInit, length: number) =>
    t.app.request('/contacts/import/file', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary="${BOUNDARY}"`, 'content-length': String(length) },
      body,
      duplex: 'half',
    } as RequestInit);

  it('imports the first batch while the rest of the file is still being uploaded', async () => {
    const { adminSession } = await seedTenant(t);
    const body = handBody();
    // A field before the file, then the file's first 1,500 rows (one whole batch); the rest later.
    let first = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\nnot the file\r\n`;
    first += `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\nname;number;email\n`;
    for (let i = 0; i < 1_500; i++) first += csvRow(i);
    let rest = '';
    for (let i = 1_500; i < 2_500; i++) rest += csvRow(i);
    rest += `\r\n--${BOUNDARY}--\r\n`;
    body.write(first);
    const res = await post(adminSession.token, body.stream, Buffer.byteLength(first + rest));
    expect(res.status).toBe(200);
    const events = ndjson(res.body!);
    let next = await events.next();
    while (!next.done && next.value.type !== 'progress') next = await events.next();
    // The upload is not over, yet 1,000 rows are committed.
    expect(next.value).toMatchObject({ type: 'progress', rows: 1_000, imported: 1_000 });
    body.write(rest);
    body.end();
    const later: ContactImportEvent[] = [];
    for await (const event of events) later.push(event);
    expect(later.at(-1)).toMatchObject({ type: 'done', rows: 2_500, imported: 2_500, rejected: 0 });
  });

  it('reads the same rows whatever the chunks the upload arrives in', async () => {
    const { adminSession } = await seedTenant(t);
    let csv = 'name,number,email\n';
    for (let i = 0; i < 50; i++) csv += csvRow(i).replaceAll(';', ',');
    const whole = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="x.csv"\r\n\r\n${csv}\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="after"\r\n\r\nx\r\n--${BOUNDARY}--\r\n`;
    for (const size of [1, 7, 64]) {
      const body = handBody();
      for (let at = 0; at < whole.length; at += size) body.write(whole.slice(at, at + size));
      body.end();
      const res = await post(adminSession.token, body.stream, whole.length);
      const events: ContactImportEvent[] = [];
      for await (const event of ndjson(res.body!)) events.push(event);
      // The first run imports all 50; the reruns find them there (a split boundary never reads as data).
      expect(events.at(-1), `chunks of ${size}`).toMatchObject({ type: 'done', rows: 50, rejected: 0, ...(size === 1 ? { imported: 50 } : { skipped: 50 }) });
    }
  });

  it('refuses a body without the file or over the limit before any row, and reports an upload cut short as failed', async () => {
    const { adminSession } = await seedTenant(t);
    const noFile = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\nx\r\n--${BOUNDARY}--\r\n`;
    const none = await post(adminSession.token, noFile, noFile.length);
    expect(none.status).toBe(400);
    expect((await none.json()).error).toBe('ERR_VALIDATION');
    const garbage = await post(adminSession.token, 'not multipart at all', 20);
    expect(garbage.status).toBe(400);
    const huge = await post(adminSession.token, 'x', 60 * 1024 * 1024);
    expect(huge.status).toBe(413);
    expect((await huge.json()).error).toBe('ERR_PAYLOAD_TOO_LARGE');

    const body = handBody();
    const cut = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="cut.csv"\r\n\r\nname;number;email\n${csvRow(1)}`;
    body.write(cut);
    body.end();
    const res = await post(adminSession.token, body.stream, cut.length);
    const events: ContactImportEvent[] = [];
    for await (const event of ndjson(res.body!)) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'failed', error: 'ERR_VALIDATION', rows: 0 });
    expect((events.at(-1) as { message: string }).message).toMatch(/upload ended/);
  });
});
