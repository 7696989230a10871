// The one template renderer of the product (spec/01 §9, spec/02 §9 "template variables": contact
// first name, contact name, greeting, protocol number, date, hour; plus queue and connection). Every
// text the platform sends on its own (greetings, farewells, out-of-hours texts, chatbot menus, rating
// questions, schedules) and every quick answer an agent picks goes through renderTemplate(), pure and
// shared by server, web and CLI. Tokens come in two styles, both understood everywhere:
// `{{firstName}}` (the help-desk products the spec descends from) and `{primeiro-nome}` (the campaign
// style), each name either canonical or one of its aliases. Unknown names stay as written.

/** The canonical variables, as `{{name}}` tokens show them to the user. */
export const TEMPLATE_VARIABLES = ['firstName', 'name', 'ms', 'protocol', 'date', 'hour', 'queue', 'connection'] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

/**
 * The values for one send: the canonical variables plus any extra ones (a campaign's `email`,
 * `number`, or its custom variables), keyed by the name a token uses.
 */
export type TemplateVars = Partial<Record<TemplateVariable, string>> & Record<string, string | undefined>;

/** Other names of the canonical variables: the campaign style of spec/03 (Portuguese) and English words. */
export const TEMPLATE_ALIASES: Readonly<Record<string, string>> = {
  nome: 'name',
  'primeiro-nome': 'firstName',
  primeiroNome: 'firstName',
  'first-name': 'firstName',
  saudacao: 'ms',
  greeting: 'ms',
  protocolo: 'protocol',
  data: 'date',
  hora: 'hour',
  fila: 'queue',
  conexao: 'connection',
  numero: 'number',
};

// `{{ name }}` (spaces allowed) or `{name}`; a name starts with a letter and may hold `-` and `_`.
const TOKEN = /\{\{\s*([A-Za-z][\w-]*)\s*\}\}|\{([A-Za-z][\w-]*)\}/g;

const own = (vars: TemplateVars, key: string) => (Object.prototype.hasOwnProperty.call(vars, key) ? vars[key] : undefined);

/** True when the text names a variable (a cheap test before gathering the values). */
export function hasTemplateTokens(text: string): boolean {
  TOKEN.lastIndex = 0;
  return TOKEN.test(text);
}

/**
 * Replaces every token whose name (or alias) has a value. One pass: values go in verbatim, never
 * expanded again (a contact named "{{ms}}" stays so); no HTML escaping (a chat message, not a page).
 * A variable of the exact name wins over an alias (a flow's answer stored as `nome`); a campaign's
 * custom variables may not take such a name (isReservedVariable).
 */
export function renderTemplate(text: string, vars: TemplateVars): string {
  return text.replace(TOKEN, (whole, double: string | undefined, single: string | undefined) => {
    const key = (double ?? single)!;
    const alias = Object.prototype.hasOwnProperty.call(TEMPLATE_ALIASES, key) ? TEMPLATE_ALIASES[key] : undefined;
    return own(vars, key) ?? (alias !== undefined ? own(vars, alias) : undefined) ?? whole;
  });
}

const RESERVED = new Set([...TEMPLATE_VARIABLES, 'number', 'email', ...Object.keys(TEMPLATE_ALIASES)].map((k) => k.toLowerCase()));

/** A name the renderer fills itself (a canonical variable, `number`, `email`, or an alias, in any case): not a custom variable's. */
export function isReservedVariable(key: string): boolean {
  return RESERVED.has(key.trim().toLowerCase());
}

export type GreetingLanguage = 'pt' | 'en' | 'es';

const GREETINGS: Record<GreetingLanguage, [morning: string, afternoon: string, evening: string]> = {
  pt: ['Bom dia', 'Boa tarde', 'Boa noite'],
  en: ['Good morning', 'Good afternoon', 'Good evening'],
  es: ['Buenos días', 'Buenas tardes', 'Buenas noches'],
};

/** Morning 05:00-11:59, afternoon 12:00-17:59, evening (and night) 18:00-04:59, in local time. */
export function greetingFor(hour: number, lang: GreetingLanguage = 'pt'): string {
  const [morning, afternoon, evening] = GREETINGS[lang] ?? GREETINGS.pt;
  if (hour >= 5 && hour < 12) return morning;
  if (hour >= 12 && hour < 18) return afternoon;
  return evening;
}

export type ZonedParts = { year: string; month: string; day: string; hour: string; minute: string; second: string };

// Building an Intl.DateTimeFormat costs far more than formatting with one: one per zone, kept.
const zoneFormats = new Map<string, Intl.DateTimeFormat>();
function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    // Zone names are few (the server's, the companies' settings); the bound is a guard.
    if (zoneFormats.size >= 500) zoneFormats.clear();
    zoneFormats.set(timeZone, format);
  }
  return format;
}

let last: { second: number; timeZone: string; parts: ZonedParts } | undefined;
/** The wall-clock fields of an instant in a time zone (IANA name), zero-padded. */
export function zonedParts(instant: Date, timeZone: string): ZonedParts {
  // The fields stop at the second, and zone offsets change on whole seconds: every instant of one
  // second has the same fields. Renders come in runs within a second (a campaign's batch, a flow's
  // replies under load), so the last answer is kept.
  const second = Math.floor(instant.getTime() / 1000);
  if (last && last.second === second && last.timeZone === timeZone) return { ...last.parts };
  const parts = zoneFormat(timeZone).formatToParts(instant);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '00';
  const zoned = { year: get('year').padStart(4, '0'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
  last = { second, timeZone, parts: zoned };
  return { ...zoned };
}

/** True when the runtime knows the IANA zone name. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export type TemplateContext = {
  contact: { name: string; number?: string | null; email?: string | null };
  ticketId?: number | null;
  queue?: string | null;
  connection?: string | null;
  now: Date;
  timeZone: string;
  /** The language of the greeting (`ms`). */
  lang?: GreetingLanguage;
  /** More variables (a campaign's custom ones); they never override the canonical ones. */
  extra?: Record<string, string>;
};

/**
 * The variables for one send. `protocol` is yyyyMMddHHmmss of the moment followed by the ticket id
 * (when there is one); `date` is dd/MM/yyyy and `hour` HH:mm:ss, all in `timeZone`. `number` and
 * `email` are there for the campaign style; a missing queue or connection renders empty.
 */
export function buildTemplateVars(ctx: TemplateContext): TemplateVars {
  const p = zonedParts(ctx.now, ctx.timeZone);
  const name = ctx.contact.name.trim();
  return {
    ...ctx.extra,
    firstName: name.split(/\s+/)[0] ?? '',
    name,
    ms: greetingFor(Number(p.hour), ctx.lang),
    protocol: `${p.year}${p.month}${p.day}${p.hour}${p.minute}${p.second}${ctx.ticketId ?? ''}`,
    date: `${p.day}/${p.month}/${p.year}`,
    hour: `${p.hour}:${p.minute}:${p.second}`,
    queue: ctx.queue ?? '',
    connection: ctx.connection ?? '',
    number: ctx.contact.number ?? '',
    email: ctx.contact.email ?? '',
  };
}
