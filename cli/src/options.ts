// Commander options derived from a command's zod options schema, Pastel-style: each key becomes
// `--kebab-key <kebab-key>`, a boolean becomes a switch (optional ones also get `--no-…`), an enum
// lists its choices, a list is a repeatable flag, and `.describe()` is the help line. Parsing stays with zod.
import { Option } from 'commander';
import { z } from 'zod';

type AnySchema = z.ZodType & { description?: string; _zod: { def: { type: string; innerType?: AnySchema; in?: AnySchema; entries?: Record<string, string>; defaultValue?: unknown } } };

export const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
export const flagOf = (key: string) => `--${kebab(key)}`;

type FieldInfo = { type: string; description: string; optional: boolean; hasDefault: boolean; choices?: string[] };

/** Walks the optional/default/pipe wrappers down to the base type, collecting the description. */
export function describeField(schema: AnySchema): FieldInfo {
  let node: AnySchema | undefined = schema;
  let description = '';
  let optional = false;
  let hasDefault = false;
  let type = 'unknown';
  let choices: string[] | undefined;
  while (node) {
    description ||= node.description ?? '';
    const def: AnySchema["_zod"]["def"] = node._zod.def;
    type = def.type;
    if (def.type === 'optional') optional = true;
    if (def.type === 'default') hasDefault = true;
    if (def.type === 'enum' && def.entries) choices = Object.values(def.entries);
    node = def.innerType ?? def.in;
  }
  return { type, description, optional, hasDefault, choices };
}

export function optionsFromSchema(schema: z.ZodObject): Option[] {
  const out: Option[] = [];
  for (const [key, field] of Object.entries(schema.shape)) {
    const info = describeField(field as AnySchema);
    const flag = flagOf(key);
    if (info.type === 'boolean') {
      // Without a default the switch is three-valued: on, off (--no-x), or left as it is. The --no-x
      // half is hidden from --help to keep it one line per field; the description names it.
      if (info.hasDefault) {
        out.push(new Option(flag, info.description));
        continue;
      }
      out.push(new Option(flag, `${info.description} (--no-${kebab(key)} turns it off)`));
      out.push(new Option(`--no-${kebab(key)}`).hideHelp());
      continue;
    }
    // A list is a repeatable flag: `--set a=1 --set b=2` collects ['a=1', 'b=2'].
    if (info.type === 'array') {
      out.push(new Option(`${flag} <${kebab(key).split('-').at(-1)}>`, `${info.description} (repeatable)`).argParser((value: string, before: string[] | undefined) => [...(before ?? []), value]));
      continue;
    }
    const option = new Option(`${flag} <${kebab(key).split('-').at(-1)}>`, info.description);
    if (info.choices) option.choices(info.choices);
    out.push(option);
  }
  return out;
}

type Issue = z.core.$ZodIssue;

/** zod's own wording of an issue, to tell it from a message a schema chose (kept as it is). */
const defaultMessage = (issue: Issue, value: unknown) => z.locales.en().localeError?.({ ...issue, input: value } as never);

const NOUNS: Record<string, string> = { string: 'text', number: 'a number', int: 'a whole number', boolean: 'on or off', array: 'a list', object: 'a set of fields' };

/**
 * What is wrong with a flag, in a person's words and naming it: `--to is required`, `--timeout must
 * be at least 5 (got '2')`, `--recurrence must be one of MENSAL, ANUAL`. A bound or a choice is
 * worded from the issue itself; any other message a schema chose ('Must be a whole number') is
 * kept, after the flag's name.
 */
export function flagProblem(flag: string, issue: Issue, value: unknown): string {
  if (value === undefined || issue.message === 'Required') return `${flag} is required`;
  const got = typeof value === 'string' || typeof value === 'number' ? ` (got '${value}')` : '';
  // A coerced number's issue describes what the coercion made of the text (NaN), not the text.
  const chosen = issue.message !== defaultMessage(issue, value) && issue.message !== defaultMessage(issue, Number(value));
  switch (issue.code) {
    case 'too_small':
    case 'too_big': {
      const least = issue.code === 'too_small';
      const strict = issue.inclusive === false;
      const unit = issue.origin === 'string' ? ' characters long' : issue.origin === 'array' ? ' items' : '';
      return `${flag} must be ${least ? (strict ? 'more than' : 'at least') : strict ? 'less than' : 'at most'} ${String(least ? issue.minimum : issue.maximum)}${unit}${got}`;
    }
    case 'invalid_value':
      return `${flag} must be one of ${issue.values.map(String).join(', ')}${got}`;
    case 'invalid_type':
      if (!chosen) return `${flag} must be ${NOUNS[issue.expected] ?? issue.expected}${got}`;
      break;
    case 'invalid_format':
      if (!chosen) return `${flag} is not a valid ${issue.format === 'date' ? 'day (YYYY-MM-DD)' : issue.format}${got}`;
      break;
  }
  return `${flag}: ${issue.message}`;
}

/** The first issue of a failed parse of flags, worded by flagProblem; `flagFor` names the flag of a key. */
export function firstFlagProblem(error: z.ZodError, values: Record<string, unknown>, flagFor: (key: string) => string = flagOf): string {
  const issue = error.issues[0]!;
  const key = issue.path[0];
  return typeof key === 'string' ? flagProblem(flagFor(key), issue, values[key]) : issue.message;
}
