// Bodies of create/update: a --from-file (JSON or YAML) merged with the flags given, flags winning,
// validated with the shared zod schema from sync/ before anything is sent. The server parses the
// same body with the same schema, so what passes here passes there.
import { readFileSync } from 'node:fs';
import { AppError, type ValidationIssue } from '@zapdesk/sync';
import { z } from 'zod';
import type { Ctx } from './context.ts';
import { fileError, UsageError, UserError } from './errors.ts';
import { flagOf, flagProblem } from './options.ts';
import { readStdin } from './prompt.ts';

export const fromFileOption = z.string().optional().describe('JSON or YAML file with the fields ("-" reads standard input); flags override it');

/** Positional ids are checked here so `plans get abc` is a usage error, not a 404. */
export function parseId(raw: string | undefined, noun: string): number {
  const id = Number(raw);
  if (!raw || !Number.isInteger(id) || id <= 0) throw new UsageError(`the ${noun} id must be a positive whole number, got '${raw ?? ''}'`);
  return id;
}

export async function readDataFile(ctx: Ctx, file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = file === '-' ? await readStdin(ctx.io) : readFileSync(file, 'utf8');
  } catch (err) {
    throw fileError('read', file, err);
  }
  let data: unknown;
  try {
    // Loaded here, not at start-up: only --from-file needs it. YAML is a superset of JSON, so one parser reads both; the extension only names the error.
    data = (await import('yaml')).parse(text);
  } catch (err) {
    throw new UserError(`${file} is not valid ${/\.json$/i.test(file) ? 'JSON' : 'YAML'}: ${(err as Error).message.split('\n')[0]}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new UserError(`${file} must hold one object (key: value lines)`);
  return data as Record<string, unknown>;
}

/** The flags that were given, without the CLI's own (--from-file, --json). */
export function givenFlags(options: Record<string, unknown>, skip: string[] = []): Record<string, unknown> {
  const own = new Set(['fromFile', 'json', ...skip]);
  return Object.fromEntries(Object.entries(options).filter(([k, v]) => v !== undefined && !own.has(k)));
}

/**
 * The body to send: file ⊕ flags, checked by `schema`. A bad or missing flag is a usage error (exit 2)
 * that names the flag; a bad file is the catalogue's validation error (exit 1) listing the fields.
 */
export async function buildBody(ctx: Ctx, schema: z.ZodType, fromFile: string | undefined, flags: Record<string, unknown>): Promise<Record<string, unknown>> {
  const file = fromFile ? await readDataFile(ctx, fromFile) : {};
  // zod drops keys it does not know: a misspelt field would be left out without a word.
  const unknown = unknownKeys(schema, file);
  if (unknown.length) throw new AppError('ERR_VALIDATION', undefined, { issues: unknown });
  const body = { ...file, ...flags };
  if (Object.keys(body).length === 0) throw new UsageError('nothing to send: give flags or --from-file');
  const parsed = schema.safeParse(body);
  if (parsed.success) return body;
  const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  // Without a file every field came from the command line, so a missing one is a missing flag.
  const flagIssue = parsed.error.issues.find((i) => !fromFile || (typeof i.path[0] === 'string' && i.path[0] in flags));
  if (flagIssue) {
    const key = flagIssue.path[0];
    throw new UsageError(typeof key === 'string' ? flagProblem(flagOf(key), flagIssue, flags[key]) : flagIssue.message);
  }
  throw new AppError('ERR_VALIDATION', undefined, { issues });
}

type SchemaNode = { _zod: { def: { type: string; shape?: Record<string, unknown>; in?: SchemaNode; innerType?: SchemaNode } } };

/** The keys of the object a body schema parses (through its transforms), or undefined when it is no object. */
function bodyKeys(schema: z.ZodType): string[] | undefined {
  for (let node: SchemaNode | undefined = schema as unknown as SchemaNode; node; ) {
    const def: SchemaNode["_zod"]["def"] = node._zod.def;
    if (def.type === 'object' && def.shape) return Object.keys(def.shape);
    node = def.in ?? def.innerType;
  }
  return undefined;
}

/** The fields of a file that the body has no place for, each with the nearest field when one is close. */
export function unknownKeys(schema: z.ZodType, data: Record<string, unknown>): ValidationIssue[] {
  const known = bodyKeys(schema);
  if (!known) return [];
  return Object.keys(data)
    .filter((key) => !known.includes(key))
    .map((key) => {
      const near = known.find((k) => editDistance(k.toLowerCase(), key.toLowerCase()) <= Math.max(1, Math.floor(k.length / 4)));
      return { path: key, message: near ? `unknown field (did you mean ${near}?)` : 'unknown field' };
    });
}

/** Levenshtein distance, for the "did you mean" of a misspelt field. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}
