// The campaign screens' pure rules, unit-tested: the dialog's form state and the body it sends,
// which fields the status leaves editable (spec/03 §4), which row actions the status machine offers,
// the variable chips and the live preview (the shared renderer, as the dispatcher renders a send).
import {
  buildTemplateVars,
  CAMPAIGN_MESSAGE_FIELDS,
  CAMPAIGN_SETTINGS_DEFAULTS,
  campaignSettingsSchema,
  isCampaignEditable,
  renderTemplate,
  type Campaign,
  type CampaignSettings,
  type CampaignStatus,
} from '@zapdesk/sync';
import { localInputToIso, toLocalInput } from '../schedules/calendar.ts';

export type MessageField = (typeof CAMPAIGN_MESSAGE_FIELDS)[number];

/** The dialog's state: selects hold '' for none, the schedule a datetime-local value. */
export type CampaignForm = Record<MessageField, string> & {
  name: string;
  whatsappId: string;
  contactListId: string;
  tagListId: string;
  fileListId: string;
  scheduledAt: string;
  confirmation: boolean;
};

const idText = (id: number | null | undefined) => (id ? String(id) : '');

export function formFromCampaign(c: Campaign | null): CampaignForm {
  const messages = Object.fromEntries(CAMPAIGN_MESSAGE_FIELDS.map((f) => [f, c?.[f] ?? ''])) as Record<MessageField, string>;
  return {
    ...messages,
    name: c?.name ?? '',
    whatsappId: idText(c?.whatsappId),
    contactListId: idText(c?.contactListId),
    tagListId: idText(c?.tagId),
    fileListId: idText(c?.fileListId),
    scheduledAt: c?.scheduledAt ? toLocalInput(new Date(c.scheduledAt)) : '',
    confirmation: c?.confirmation ?? false,
  };
}

/** What the dialog may change: everything, the messages only (a cancelled campaign), or nothing. */
export type FieldAccess = 'all' | 'messages' | 'none';

export function fieldAccess(c: Pick<Campaign, 'status' | 'scheduledAt'> | null, now: Date): FieldAccess {
  if (!c) return 'all';
  if (c.status === 'CANCELADA') return 'messages';
  return isCampaignEditable(c.status, c.scheduledAt, now) ? 'all' : 'none';
}

/** The body of POST or PUT /campaigns: a cancelled campaign sends its message fields only. */
export function campaignBody(form: CampaignForm, access: FieldAccess): Record<string, unknown> {
  const messages = Object.fromEntries(CAMPAIGN_MESSAGE_FIELDS.map((f) => [f, form[f]]));
  if (access === 'messages') return messages;
  return {
    ...messages,
    name: form.name,
    confirmation: form.confirmation,
    whatsappId: form.whatsappId ? Number(form.whatsappId) : null,
    contactListId: form.contactListId ? Number(form.contactListId) : null,
    tagListId: form.tagListId ? Number(form.tagListId) : null,
    fileListId: form.fileListId ? Number(form.fileListId) : null,
    scheduledAt: form.scheduledAt ? localInputToIso(form.scheduledAt) : null,
  };
}

export type RowActions = { stop: boolean; restart: boolean; report: boolean; delete: boolean };

/**
 * The row actions the status machine allows (spec/03 §2, §4): stop while programmed or in progress,
 * restart when cancelled, the report always (one not started yet says its recipients are listed once
 * it starts), delete unless it is being sent (cancel first) and only for who may
 * (contacts-page:deleteContact). Edit is always offered: a campaign that is no longer editable opens
 * read only. A campaign whose delete was cut short (`deleting`) offers its delete alone, which
 * finishes it.
 */
export function rowActions(status: CampaignStatus, mayDelete: boolean, deleting = false): RowActions {
  if (deleting) return { stop: false, restart: false, report: false, delete: mayDelete };
  return {
    stop: status === 'EM_ANDAMENTO' || status === 'PROGRAMADA',
    restart: status === 'CANCELADA',
    report: true,
    delete: mayDelete && status !== 'EM_ANDAMENTO',
  };
}

/** The chips of the message editor: the built-in campaign variables, then the custom ones. */
export const BUILT_IN_TOKENS = ['nome', 'primeiro-nome', 'email', 'numero', 'saudacao'] as const;

export function variableTokens(custom: { key: string }[]): string[] {
  const all = [...BUILT_IN_TOKENS, ...custom.map((v) => v.key)];
  return all.filter((k, i) => all.indexOf(k) === i).map((k) => `{${k}}`);
}

/** `token` typed over the selection [start, end) of `text`; the caret lands after it. */
export function insertToken(text: string, start: number, end: number, token: string): { text: string; caret: number } {
  const a = Math.max(0, Math.min(start, text.length));
  const b = Math.max(a, Math.min(end, text.length));
  return { text: text.slice(0, a) + token + text.slice(b), caret: a + token.length };
}

export type SampleContact = { name: string; number: string; email: string };

/** The message as `contact` would get it now, rendered as the dispatcher renders a send (greeting in pt). */
export function previewMessage(text: string, contact: SampleContact, settings: Pick<CampaignSettings, 'variables' | 'timeZone'>, now: Date): string {
  const timeZone = settings.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const extra = Object.fromEntries(settings.variables.map((v) => [v.key, v.value]));
  return renderTemplate(text, buildTemplateVars({ contact, now, timeZone, lang: 'pt', extra }));
}

/** GET /campaign-settings answers one row per saved key, its value JSON; the rest are defaults. */
export function settingsFromRows(rows: { key: string; value: string }[]): CampaignSettings {
  const out: Record<string, unknown> = { ...CAMPAIGN_SETTINGS_DEFAULTS };
  const shape = campaignSettingsSchema.shape;
  for (const row of rows) {
    const field = shape[row.key as keyof typeof shape];
    if (!field) continue;
    try {
      const parsed = field.safeParse(JSON.parse(row.value));
      if (parsed.success) out[row.key] = parsed.data;
    } catch {
      // A value that is not JSON keeps the default, as the server reads it.
    }
  }
  return out as CampaignSettings;
}

/** GET /campaigns/{id}/report answers 100 recipients a page. */
export const REPORT_PAGE_SIZE = 100;

/** The report pages that hold rows first..last (inclusive), 1-based as the API counts them. */
export function pagesFor(first: number, last: number): number[] {
  if (last < first) return [1];
  const from = Math.floor(Math.max(0, first) / REPORT_PAGE_SIZE) + 1;
  const to = Math.floor(Math.max(0, last) / REPORT_PAGE_SIZE) + 1;
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
