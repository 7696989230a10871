// Exit codes and the one line a failure prints (DESIGN §9): 0 ok, 1 a user error (the catalogue
// message in the user's language), 2 a usage error (bad flags, missing arguments).
import { AppError, isErrorCode } from '@zapdesk/sync';
import { translate, type CliLanguage } from './lang.ts';

export const EXIT_OK = 0;
export const EXIT_USER = 1;
export const EXIT_USAGE = 2;

/** Bad input on the command line: printed as is, exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A failure the user can act on that has no catalogue code (unreachable server, unreadable file). */
export class UserError extends Error {
  override name = 'UserError';
}

/** Why a file could not be read or written, in words (the system's code when it is not one of these). */
const FILE_PROBLEMS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a part of the path is not a folder',
  ENAMETOOLONG: 'the name is too long',
  ENOSPC: 'the disk is full',
  EROFS: 'the disk is read-only',
};

/** `cannot read leads.xlsx: no such file`; a very long name is cut (the problem may be its length). */
export function fileError(verb: 'read' | 'write', file: string, err: unknown): UserError {
  const code = (err as NodeJS.ErrnoException)?.code;
  const why = (code && FILE_PROBLEMS[code]) ?? code ?? (err instanceof Error ? err.message : String(err));
  const name = file.length > 80 ? `${file.slice(0, 60)}… (${file.length} characters)` : file;
  return new UserError(`cannot ${verb} ${name}: ${why}`);
}

/** The server could not be reached at all. */
export class NetworkError extends UserError {
  constructor(readonly url: string, cause: unknown) {
    super(`cannot reach the zapdesk server at ${url} (${causeText(cause)}); check --url or ZAPDESK_URL`);
  }
}

function causeText(cause: unknown): string {
  const inner = (cause as { cause?: { code?: string; message?: string } })?.cause;
  return inner?.code ?? inner?.message ?? (cause instanceof Error ? cause.message : String(cause));
}

export type Failure = { exitCode: number; line: string };

/** One line for any error, `error: ` and the reason, translated when it carries a catalogue code. */
export function describeFailure(err: unknown, lang: CliLanguage): Failure {
  if (err instanceof UsageError) return { exitCode: EXIT_USAGE, line: `error: ${err.message}` };
  if (err instanceof UserError) return { exitCode: EXIT_USER, line: `error: ${err.message}` };
  // A code this build does not know (a newer server) is shown as is, as the web does (spec/01 §8).
  const unknown = err instanceof AppError ? err.details?.error : undefined;
  if (typeof unknown === 'string') return { exitCode: EXIT_USER, line: `error: ${unknown}` };
  const code = errorCode(err);
  if (code) {
    const issues = (err as AppError).issues?.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)) ?? [];
    // The expired-subscription message names the date, which the catalogue line cannot; keep it in English.
    const base = code === 'ERR_SUBSCRIPTION_EXPIRED' && lang === 'en' && err instanceof Error ? err.message : translate(code, lang);
    return { exitCode: EXIT_USER, line: `error: ${issues.length ? `${base} (${issues.join('; ')})` : base}` };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { exitCode: EXIT_USER, line: `error: ${message}` };
}

function errorCode(err: unknown): string | undefined {
  if (err instanceof AppError) return err.code;
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && (isErrorCode(code) || code.startsWith('ERR_')) ? code : undefined;
}
