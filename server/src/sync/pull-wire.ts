// The messages between the main thread and the pull thread (pull-thread.ts, pull-worker.ts), and
// how an error crosses: an AppError arrives as the same AppError (code, words, issues, details);
// anything else as a plain Error with its message and stack.
import { AppError, type ErrorCode, type ValidationIssue } from '@zapdesk/sync';
import type { CvrWriter } from './cvr-writer.ts';
import type { PullRequest, SessionRef } from './pull.ts';

/** What the pull thread is started with. */
export type PullThreadData = { databaseUrl: string };

/** The writes a pull makes, done by the main thread (the store's CvrWriter). */
export type WriteOp = keyof CvrWriter;

export type WireError =
  | { app: true; code: ErrorCode; message: string; issues?: ValidationIssue[]; details?: Record<string, unknown> }
  | { app: false; message: string; stack?: string };

export type ToPullThread =
  | { kind: 'pull'; id: number; session: SessionRef; request: PullRequest }
  | { kind: 'wrote'; id: number; ok: true; value: unknown }
  | { kind: 'wrote'; id: number; ok: false; error: WireError }
  | { kind: 'stop' };

export type FromPullThread =
  | { kind: 'ready' }
  /** The answer as the JSON text the client gets, and its cookie (the socket remembers it). */
  | { kind: 'pulled'; id: number; ok: true; text: string; cookie: unknown }
  | { kind: 'pulled'; id: number; ok: false; error: WireError }
  | { kind: 'write'; id: number; op: WriteOp; args: unknown[] }
  | { kind: 'log'; level: 'warn'; msg: string; data?: Record<string, unknown> };

export function errorToWire(err: unknown): WireError {
  if (err instanceof AppError) return { app: true, code: err.code, message: err.message, issues: err.issues, details: err.details };
  if (err instanceof Error) return { app: false, message: err.message, stack: err.stack };
  return { app: false, message: String(err) };
}

export function errorFromWire(wire: WireError): Error {
  if (wire.app) return new AppError(wire.code, wire.message, { issues: wire.issues, details: wire.details });
  const err = new Error(wire.message);
  if (wire.stack) err.stack = wire.stack;
  return err;
}
