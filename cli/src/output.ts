// Printing a command's result: JSON for --json, an Ink view for a person, plain text for a pipe.
// Ink (and React, yoga) load only when a view is drawn: they cost seconds of start-up that scripts
// piping --json should not pay.
import type { ReactElement } from 'react';
import type { Ctx } from './context.ts';
import { plainText, type Shown } from './present.ts';

export function writeLine(stream: { write(s: string): unknown }, text: string): void {
  stream.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** Renders a static Ink element once and returns when it is on the screen. */
export async function renderOnce(ctx: Ctx, element: ReactElement): Promise<void> {
  const { render } = await import('ink');
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
  if (ctx.interactive && shown.kind !== 'text') {
    const { shownElement } = await import('./views/Shown.tsx');
    return renderOnce(ctx, shownElement(shown, ctx.io.stdout.columns));
  }
  writeLine(ctx.io.stdout, plainText(shown));
}
