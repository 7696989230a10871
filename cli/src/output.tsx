// Printing a command's result: JSON for --json, an Ink view for a person, plain text for a pipe.
import { render } from 'ink';
import type { ReactElement } from 'react';
import type { Ctx } from './context.ts';
import { plainText, type Shown } from './present.ts';
import { ShownView } from './views/Shown.tsx';

export function writeLine(stream: NodeJS.WritableStream | { write(s: string): unknown }, text: string): void {
  stream.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** Renders a static Ink element once and returns when it is on the screen. */
export async function renderOnce(ctx: Ctx, element: ReactElement): Promise<void> {
  const instance = render(element, {
    stdout: ctx.io.stdout as NodeJS.WriteStream,
    stderr: ctx.io.stderr as NodeJS.WriteStream,
    patchConsole: false,
    exitOnCtrlC: false,
  });
  instance.unmount();
  await instance.waitUntilExit();
}

export async function emit(ctx: Ctx, data: unknown, shown: Shown | undefined, json: boolean): Promise<void> {
  if (json) {
    writeLine(ctx.io.stdout, JSON.stringify(data ?? null, null, 2));
    return;
  }
  if (!shown) return;
  if (ctx.interactive && shown.kind !== 'text') return renderOnce(ctx, <ShownView shown={shown} />);
  writeLine(ctx.io.stdout, plainText(shown));
}
