// Commander options derived from a command's zod options schema, Pastel-style: each key becomes
// `--kebab-key <kebab-key>`, a boolean becomes a switch (optional ones also get `--no-…`), an enum
// lists its choices, and `.describe()` is the help line. Parsing stays with zod.
import { Option } from 'commander';
import type { z } from 'zod';

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
    const option = new Option(`${flag} <${kebab(key).split('-').at(-1)}>`, info.description);
    if (info.choices) option.choices(info.choices);
    out.push(option);
  }
  return out;
}
