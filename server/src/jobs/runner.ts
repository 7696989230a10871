// The job runner: node-cron ticks a job on its cron expression in this process. A tick never
// overlaps the previous one (noOverlap), and a failing tick is logged, not thrown: the next tick
// tries again. Jobs claim their work in the database, so several instances may run the same job.
import cron from 'node-cron';
import type { Logger } from '../log.ts';

export type RunningJob = { name: string; stop(): Promise<void> };

export function startCronJob(opts: { name: string; cron: string; log: Logger; run: () => Promise<unknown> }): RunningJob {
  let running: Promise<unknown> | undefined;
  const task = cron.schedule(
    opts.cron,
    async () => {
      running = opts.run().catch((err: unknown) => opts.log.error('job failed', { job: opts.name, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }));
      await running;
      running = undefined;
    },
    { name: opts.name, noOverlap: true },
  );
  return {
    name: opts.name,
    async stop() {
      await task.destroy();
      // A tick in flight finishes its sends and marks, so nothing is left claimed by a clean stop.
      await running;
    },
  };
}
