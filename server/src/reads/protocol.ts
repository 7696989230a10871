// The messages between the read worker (worker.ts) and the thread that started it (host.ts).
import { AppError, type ErrorCode, type ValidationIssue } from '@zapdesk/sync';
import type { CvrWriter } from '../sync/cvr-writer.ts';
import type { ReadAnswer, ReadTaskName } from './tasks.ts';

/** A catalogue error crosses as its parts; anything else as its stack, to be logged as a bug. */
export type ErrorMessage = { code: ErrorCode; message: string; issues?: ValidationIssue[]; details?: Record<string, unknown> } | { unexpected: string };

/** What the worker asks of the writer's thread: a pull's writes, and the search index's catch-up. */
export type WriterCalls = CvrWriter & { indexQueuedMessages(): Promise<number> };
export type WriteOp = keyof WriterCalls;

export type ToWorker =
  | { type: 'task'; id: number; name: ReadTaskName; args: unknown }
  | { type: 'written'; id: number; ok: true; value: unknown }
  | { type: 'written'; id: number; ok: false; error: ErrorMessage };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'answer'; id: number; ok: true; answer: ReadAnswer }
  | { type: 'answer'; id: number; ok: false; error: ErrorMessage }
  | { type: 'write'; id: number; op: WriteOp; args: unknown[] }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; msg: string; data?: Record<string, unknown> };

export function toErrorMessage(err: unknown): ErrorMessage {
  if (err instanceof AppError) return { code: err.code, message: err.message, issues: err.issues, details: err.details };
  return { unexpected: err instanceof Error ? (err.stack ?? err.message) : String(err) };
}

/** The error on this side: the same AppError, or an Error naming the other thread's failure. */
export function fromErrorMessage(e: ErrorMessage, where: string): Error {
  if ('unexpected' in e) return new Error(`${where}: ${e.unexpected}`);
  return new AppError(e.code, e.message, { issues: e.issues, details: e.details });
}
