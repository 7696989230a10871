// Request parsing: malformed JSON, wrong types and unknown ids become catalogue errors (never a 500).
import { AppError, idSchema, type ValidationIssue } from '@zapdesk/sync';
import type { Context } from 'hono';
import type { z } from 'zod';

export function toIssues(error: z.ZodError, input?: unknown): ValidationIssue[] {
  return error.issues.map((i) => ({ path: i.path.join('.'), message: messageOf(i, input) }));
}

/** The value at `path` in what was sent (undefined when the path leads nowhere). */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let at = input;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

/**
 * An issue's message, in the client's terms rather than the parser's. A field left out is
 * "Required", the spec's word for it on every form (zod says it received `undefined`); a number read from text (a query's
 * `?companyId=abc`, coerced) that is not one is "expected a number" (zod says it received NaN).
 * A form's own "Required" (the spec's words for an empty field) is kept for an empty field only:
 * a name sent as 123, or a type that is not one of the list, says so.
 */
function messageOf(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.message === 'Required' && (issue.code === 'invalid_type' || issue.code === 'invalid_value')) {
    const sent = valueAt(input, issue.path);
    if (sent !== undefined && sent !== null && sent !== '') {
      return issue.code === 'invalid_type' ? `Invalid input: expected ${issue.expected}` : `Invalid option: expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    }
  }
  if (issue.code !== 'invalid_type') return issue.message;
  if (issue.message.endsWith('received undefined')) return 'Required';
  if (issue.expected === 'number' && issue.message.endsWith('received NaN')) return 'Invalid input: expected a number';
  return issue.message;
}

/**
 * Text no database stores faithfully: a NUL character (PostgreSQL refuses it in text) or a lone
 * UTF-16 surrogate, which JSON's `\ud800` escapes can carry (it would be written as U+FFFD by
 * PostgreSQL and as three unreadable bytes by SQLite). What is wrong with a string, if anything.
 */
function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'Text may not contain the NUL character';
  if (!text.isWellFormed()) return 'Text may not contain a lone UTF-16 surrogate (half of a character)';
  return undefined;
}

/**
 * The path (keys, outermost first) of the first string that `textProblem` refuses, with why. Every
 * request body is walked, so the walk allocates nothing unless it finds one.
 */
function findBadText(value: unknown): { path: string[]; message: string } | undefined {
  if (typeof value === 'string') {
    const message = textProblem(value);
    return message ? { path: [], message } : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  for (const key in value) {
    const found = findBadText((value as Record<string, unknown>)[key]);
    if (found) {
      found.path.unshift(key);
      return found;
    }
  }
  return undefined;
}

export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const bad = findBadText(input);
  if (bad) {
    const at = bad.path.join('.') || 'body';
    throw new AppError('ERR_VALIDATION', `${at}: ${bad.message}`, { issues: [{ path: at, message: bad.message }] });
  }
  const result = schema.safeParse(input);
  if (!result.success) {
    const issues = toIssues(result.error, input);
    const first = issues[0];
    throw new AppError('ERR_VALIDATION', first ? `${first.path || 'body'}: ${first.message}` : undefined, { issues });
  }
  return result.data;
}

/**
 * Who watches which schema a route parses its body and query with: the tests, to check that each
 * route's OpenAPI document names the very schema (http/openapi/README.md). Nobody in production.
 */
export const parseWatch: { listener?: (c: Context, part: 'body' | 'query', schema: z.ZodType) => void } = {};

/** Reads a JSON body (an empty body counts as `{}`) and validates it. */
export async function parseBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  parseWatch.listener?.(c, 'body', schema);
  const type = c.req.header('content-type') ?? '';
  const text = await c.req.text();
  if (text.trim() === '') return parseWith(schema, {});
  if (type && !/json/i.test(type)) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new AppError('ERR_INVALID_JSON');
  }
  return parseWith(schema, data);
}

export function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  parseWatch.listener?.(c, 'query', schema);
  const query: Record<string, string | string[]> = {};
  for (const [key, values] of Object.entries(c.req.queries())) {
    // `tags[]=1&tags[]=2` and `tags=1&tags=2` both read as a list; a single value stays a string.
    const name = key.endsWith('[]') ? key.slice(0, -2) : key;
    query[name] = values.length > 1 || key.endsWith('[]') ? values : (values[0] ?? '');
  }
  return parseWith(schema, query);
}

/** A numeric path parameter; anything else is a 404 of the given code, as an unknown id would be. */
export function parseId(c: Context, name: string, notFound: ConstructorParameters<typeof AppError>[0] = 'ERR_NOT_FOUND'): number {
  const result = idSchema.safeParse(c.req.param(name));
  if (!result.success || result.data > 2_147_483_647) throw new AppError(notFound);
  return result.data;
}
