// `campaigns settings`: the company's campaign settings as the dispatcher reads them (the saved
// ones over the defaults), and `--set key=value` (repeatable) to change some. Each value is read as
// YAML (20, true, null, 08:00, [{key: loja, value: Centro}]) and checked with the field's own
// schema from sync/ (campaignSettingsSchema) before anything is sent; a bad one is a usage error.
import { CAMPAIGN_SETTINGS_DEFAULTS, campaignSettingsSchema, type CampaignSettings } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { UsageError } from '../../errors.ts';
import { flagProblem } from '../../options.ts';
import { column } from '../../present.ts';

/** For the fields whose schema says nothing. */
const DESCRIPTIONS: Partial<Record<keyof CampaignSettings, string>> = { variables: 'Your own {key} placeholders for the messages: [{key, value}]' };

type SettingRow = { id: number; key: string; value: string };
type Setting = { key: keyof CampaignSettings; value: unknown };

const shape = campaignSettingsSchema.shape;
const KEYS = Object.keys(shape) as (keyof CampaignSettings)[];

export default defineCommand({
  description: 'Show the campaign settings (pacing in seconds, caps, sending window, variables), or change them with --set key=value',
  examples: [
    'zapdesk campaigns settings',
    'zapdesk campaigns settings --set messageInterval=10 --set hourlyLimit=60',
    "zapdesk campaigns settings --set sendWindowStart=08:00 --set sendWindowEnd=20:00 --set timeZone=America/Sao_Paulo",
    "zapdesk campaigns settings --set 'variables=[{key: loja, value: Centro}]'",
    "zapdesk campaigns settings --json | jq '.settings.messageInterval'",
  ],
  options: z.object({
    set: z.array(z.string()).optional().describe(`key=value, repeatable; keys: ${KEYS.join(', ')}; null clears a window, zone or tag`),
  }),
  async run({ options }, ctx) {
    const changes = options.set?.length ? await parseSettings(options.set) : undefined;
    const api = ctx.api();
    const rows = changes ? await api.post<SettingRow[]>('/campaign-settings', { settings: changes }) : await api.get<SettingRow[]>('/campaign-settings');
    return effectiveSettings(rows, Object.keys(changes ?? {}));
  },
  show: (r) => ({
    kind: 'table',
    columns: [
      column<Setting>('key', (s) => s.key),
      column<Setting>('value', (s) => (s.value === null ? 'null' : typeof s.value === 'object' ? JSON.stringify(s.value) : s.value)),
      column<Setting>('source', (s) => (r.changed.includes(s.key) ? 'changed' : r.saved.includes(s.key) ? 'saved' : 'default'), { drop: 1 }),
      column<Setting>('what', (s) => (shape[s.key] as z.ZodType).description ?? DESCRIPTIONS[s.key], { drop: 0 }),
    ],
    rows: KEYS.map((key): Setting => ({ key, value: r.settings[key] })),
    footer: r.changed.length ? `Saved ${r.changed.join(', ')}.` : undefined,
  }),
});

/** `key=value` pairs into a partial settings object; an unknown key or a bad value names the pair. */
export async function parseSettings(pairs: string[]): Promise<Partial<CampaignSettings>> {
  // Loaded here, not at start-up: only --set needs a YAML reader.
  const { parse } = await import('yaml');
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const key = pair.slice(0, eq).trim() as keyof CampaignSettings;
    if (eq <= 0 || !(key in shape)) throw new UsageError(`--set ${pair}: ${eq <= 0 ? 'write key=value' : 'unknown setting'}; the keys are ${KEYS.join(', ')}`);
    const raw = pair.slice(eq + 1);
    const field = shape[key] as z.ZodType;
    // YAML first (numbers, booleans, null, lists), then the text as it is (a zone, a time).
    let parsed: unknown;
    try {
      parsed = raw.trim() === '' ? null : parse(raw);
    } catch {
      parsed = raw;
    }
    const attempt = field.safeParse(parsed);
    const asText = attempt.success ? attempt : field.safeParse(raw);
    if (!asText.success) throw new UsageError(flagProblem(`--set ${key}`, attempt.error!.issues[0]!, typeof parsed === 'object' ? undefined : parsed).replace(/ is required$/, ' needs a value'));
    out[key] = asText.data;
  }
  return out as Partial<CampaignSettings>;
}

/**
 * Every setting as the dispatcher reads it (the saved value, or the default when none is saved or a
 * stored one no longer parses), the keys saved, and the keys this run changed.
 */
function effectiveSettings(rows: SettingRow[], changed: string[]) {
  const stored = new Map(rows.map((r) => [r.key, r.value]));
  const settings: Record<string, unknown> = { ...CAMPAIGN_SETTINGS_DEFAULTS };
  const saved: string[] = [];
  for (const key of KEYS) {
    const text = stored.get(key);
    if (text === undefined) continue;
    try {
      const parsed = (shape[key] as z.ZodType).safeParse(JSON.parse(text));
      if (!parsed.success) continue;
      settings[key] = parsed.data;
      saved.push(key);
    } catch {
      // not JSON: the default stands, as for the dispatcher
    }
  }
  return { settings: settings as CampaignSettings, saved, changed };
}
