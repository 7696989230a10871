import { createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { fileError, UsageError } from '../../errors.ts';
import { sendRaw } from '../../raw.ts';

export default defineCommand({
  description: "Export every contact as the server's CSV (UTF-8 with BOM, ';', name;number;email), which imports back as it is",
  examples: ['zapdesk contacts export > contatos.csv', 'zapdesk contacts export --output contatos.csv', 'zapdesk contacts export --output contatos.csv --json'],
  options: z.object({
    output: z.string().optional().describe('write to this file instead of standard output'),
  }),
  async run({ options }, ctx) {
    const json = Boolean((options as { json?: boolean }).json);
    if (json && !options.output) throw new UsageError('--json needs --output: without it standard output is the CSV');
    const res = await sendRaw(ctx.api(), '/contacts/export');
    // Streamed as it comes (a large company's export never sits in memory); lines are counted on the way.
    let lineBreaks = 0;
    let bytes = 0;
    const count = new Transform({
      transform(chunk: Buffer, _enc, done) {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lineBreaks++;
        done(null, chunk);
      },
    });
    const body = Readable.fromWeb(res.body as NodeReadableStream);
    const output = options.output;
    if (output) {
      await pipeline(body, count, createWriteStream(output)).catch((err: NodeJS.ErrnoException) => {
        throw err.syscall ? fileError('write', output, err) : err;
      });
    } else {
      // A reader that stops early (`| head`) is not a failure.
      await pipeline(body, count, ctx.io.stdout, { end: false }).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EPIPE') throw err;
      });
    }
    // Every line ends in CRLF, the title line included.
    return { file: options.output ?? null, contacts: Math.max(lineBreaks - 1, 0), bytes };
  },
  show: (r) => (r.file ? { kind: 'text', text: `Exported ${r.contacts} contacts to ${r.file}.` } : undefined),
});
