// `campaigns report ID --watch`: the report read again on every poke (or every second without
// them) until the campaign is FINALIZADA or CANCELADA, or the person quits. On a TTY the Ink view
// redraws in place; elsewhere one plain line on stderr when the counts change (at most one a
// second, and always the last), so stdout holds only the final report, as without --watch.
import type { CampaignReport } from '@zapdesk/sync';
import type { Ctx } from '../../context.ts';
import { NetworkError } from '../../errors.ts';
import { refreshOnPokes, type Refresher } from '../../live/pokes.ts';
import { listenForQuit } from '../../live/quit.ts';
import { writeLine } from '../../output.ts';
import type { Api } from '../../session.ts';
import type { WatchState } from '../../views/CampaignProgress.tsx';
import { progressLine } from './format.ts';

type Totals = Pick<CampaignReport, 'campaign' | 'totals'>;
type Screen = { update(report: Totals, state: WatchState, offlineSince?: string): void; close(ended: 'campaign' | 'quit'): void };

const FINAL = new Set(['FINALIZADA', 'CANCELADA']);
const clock = () => new Date().toTimeString().slice(0, 8);

export const isFinal = (status: string) => FINAL.has(status);

/** Watches until the campaign ends or the person quits; resolves with the last report read. */
export async function watchReport(ctx: Ctx, api: Api, id: number, opts: { poll: boolean; live: boolean }): Promise<{ report: CampaignReport; drawn: boolean }> {
  const screen = await createReportScreen(ctx, opts.live);
  let latest: CampaignReport | undefined;
  let offlineSince: string | undefined;
  let refresher: Refresher | undefined;
  let over = false;
  const stateNow = (): WatchState => (offlineSince ? 'offline' : refresher?.live() ? 'live' : 'polling');
  return new Promise((resolve, reject) => {
    const finish = (err?: unknown) => {
      if (over) return;
      over = true;
      refresher?.stop();
      stopListening();
      screen.close(latest && isFinal(latest.campaign.status) ? 'campaign' : 'quit');
      if (err !== undefined || !latest) reject(err);
      else resolve({ report: latest, drawn: opts.live });
    };
    const stopListening = listenForQuit(ctx, () => finish());
    const refresh = async () => {
      const report = await api.get<CampaignReport>(`/campaigns/${id}/report`, { query: { pageNumber: 1 } });
      if (over) return;
      latest = report;
      offlineSince = undefined;
      screen.update(report, stateNow());
      if (isFinal(report.campaign.status)) finish();
    };
    const onError = (err: unknown) => {
      // The server away (a restart, the network): the watch waits for it; anything else ends it.
      if (!(err instanceof NetworkError) || !latest) return finish(err);
      offlineSince ??= clock();
      screen.update(latest, 'offline', offlineSince);
    };
    refreshOnPokes(api, { poll: opts.poll, refresh, onError }).then(
      (r) => {
        refresher = r;
        if (over) r.stop();
        else if (latest) screen.update(latest, stateNow(), offlineSince);
      },
      (err: unknown) => finish(err),
    );
  });
}

async function createReportScreen(ctx: Ctx, live: boolean): Promise<Screen> {
  if (!live) {
    let printed = '';
    let pending: string | undefined;
    let last = 0;
    let wasOffline = false;
    const say = (line: string) => {
      printed = line;
      pending = undefined;
      last = Date.now();
      writeLine(ctx.io.stderr, line);
    };
    return {
      update(report, state, since) {
        if (state === 'offline') {
          if (!wasOffline) writeLine(ctx.io.stderr, `${since ?? clock()} the server does not answer: retrying`);
          wasOffline = true;
          return;
        }
        if (wasOffline) writeLine(ctx.io.stderr, `${clock()} the server answers again`);
        wasOffline = false;
        const line = progressLine(report);
        if (line === printed) return;
        if (Date.now() - last >= 1000 || isFinal(report.campaign.status)) say(line);
        else pending = line;
      },
      close() {
        if (pending) say(pending);
      },
    };
  }

  // Ink and React load only for a person at a terminal: a script's run does not pay for them.
  const [{ render }, { createElement }, { CampaignProgress }] = await Promise.all([import('ink'), import('react'), import('../../views/CampaignProgress.tsx')]);
  const stdout = ctx.io.stdout as NodeJS.WriteStream;
  let props: { report?: Totals; state: WatchState; at: string; offlineSince?: string; ended?: 'campaign' | 'quit' } = { state: 'polling', at: clock() };
  const draw = () => (props.report ? createElement(CampaignProgress, { ...props, report: props.report, width: stdout.columns || 80 }) : null);
  const instance = render(draw(), { stdout, patchConsole: false, exitOnCtrlC: false });
  const redraw = () => instance.rerender(draw());
  stdout.on('resize', redraw);
  return {
    update(report, state, offlineSince) {
      props = { ...props, report, state, offlineSince, at: clock() };
      redraw();
    },
    close(ended) {
      props = { ...props, ended };
      redraw();
      stdout.off('resize', redraw);
      instance.unmount();
    },
  };
}
