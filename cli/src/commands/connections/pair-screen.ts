// What `connections pair` shows while it waits: the Ink view on a TTY (redrawn in place), plain
// lines elsewhere (each new QR printed once, for logs and --json runs, on stderr).
import type { Ctx } from '../../context.ts';
import { writeLine } from '../../output.ts';
import type { ConnectionState } from '../../live/connection.ts';

export type PairScreen = { update(state: ConnectionState): Promise<void>; close(): Promise<void> };

export async function createPairScreen(ctx: Ctx, head: { id: number; name: string; live: boolean }): Promise<PairScreen> {
  const QRCode = await import('qrcode');
  const started = Date.now();
  const seen = new Set<string>();
  let lastStatus = '';

  if (!head.live) {
    return {
      async update(s) {
        const fresh = s.qrcode && !seen.has(s.qrcode);
        if (s.qrcode) seen.add(s.qrcode);
        if (s.status !== lastStatus || (fresh && s.status === 'qrcode')) writeLine(ctx.io.stderr, `connection ${s.id}: ${s.status}${s.status === 'qrcode' ? ` (QR ${seen.size})` : ''}`);
        lastStatus = s.status;
        if (fresh && s.status === 'qrcode') writeLine(ctx.io.stderr, await QRCode.toString(s.qrcode, { type: 'utf8', errorCorrectionLevel: 'L' }));
      },
      async close() {},
    };
  }

  // Ink and React load only for a person at a terminal: a script's run does not pay for them.
  const [{ render }, { createElement }] = await Promise.all([import('ink'), import('react')]);
  const { Pair } = await import('../../views/Pair.tsx');
  const props = { id: head.id, name: head.name, status: 'OPENING', qr: undefined as string | undefined, attempt: 0, seconds: 0 };
  const instance = render(createElement(Pair, props), { stdout: ctx.io.stdout as NodeJS.WriteStream, patchConsole: false, exitOnCtrlC: false });
  const draw = () => instance.rerender(createElement(Pair, { ...props, seconds: Math.round((Date.now() - started) / 1000) }));
  const ticker = setInterval(draw, 1000);
  return {
    async update(s) {
      if (s.qrcode && !seen.has(s.qrcode)) {
        seen.add(s.qrcode);
        props.qr = await QRCode.toString(s.qrcode, { type: 'terminal', small: true, errorCorrectionLevel: 'L' });
      }
      Object.assign(props, { status: s.status, attempt: seen.size });
      draw();
    },
    // Ink's last frame is written as it unmounts: a line printed before that (the outcome) would be
    // glued to the end of the view.
    async close() {
      clearInterval(ticker);
      draw();
      instance.unmount();
      await instance.waitUntilExit();
    },
  };
}
