// The campaign file of `campaigns create --from-file`: what a person writes (names or ids of the
// connection, contact list, tag list and file list; the messages as a list), checked field by field
// with the shared schema's own rules, then turned into the body of POST /campaigns and checked again
// with campaignCreateSchema itself. Every problem is one line naming the file and the field.
import { AppError, campaignCreateSchema, CAMPAIGN_VARIANTS, type Connection, type ContactList, type FileListRecord, type Tag } from '@zapdesk/sync';
import { z } from 'zod';
import type { Ctx } from '../../context.ts';
import { UserError } from '../../errors.ts';
import { readDataFile, unknownKeys } from '../../input.ts';
import { flagProblem } from '../../options.ts';
import type { Api } from '../../session.ts';

const shape = campaignCreateSchema.shape;
/** An id (a number) or a name (text). */
const ref = z.union([z.number().int().positive(), z.string().trim().min(1, 'give an id or a name')]);
const message = shape.message1.unwrap().refine((m) => m.trim() !== '', 'a message may not be empty');
/** 1 to 5 variants; a single text is one variant. */
const variants = z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(message).min(1).max(CAMPAIGN_VARIANTS));

export const campaignFileSchema = z
  .object({
    name: shape.name,
    connection: ref.describe('the WhatsApp connection that sends, by id or name'),
    contactList: ref.optional().describe('the contact list to send to, by id or name'),
    tagList: ref.optional().describe('or as well: the contacts whose tickets carry this tag, by id or name'),
    fileList: ref.optional().describe('a file list whose files follow the message, by id or name'),
    messages: variants.describe('1 to 5 variants; each recipient gets one at random'),
    confirmation: z.boolean().optional().describe('ask first: the message goes only after a yes'),
    confirmationMessages: variants.optional().describe('1 to 5 variants of the question, with confirmation: true'),
    scheduledAt: z.string().optional().describe('when it starts, ISO-8601 with a time zone (or --start)'),
  })
  .superRefine((f, ctx) => {
    if (f.contactList === undefined && f.tagList === undefined) ctx.addIssue({ code: 'custom', path: ['contactList'], message: 'give a contact list or a tag list (or both)' });
    if (f.confirmation && !f.confirmationMessages) ctx.addIssue({ code: 'custom', path: ['confirmationMessages'], message: 'a confirmation campaign needs its confirmation messages' });
    if (!f.confirmation && f.confirmationMessages) ctx.addIssue({ code: 'custom', path: ['confirmation'], message: 'set confirmation: true to send the confirmation messages' });
  });
export type CampaignFile = z.infer<typeof campaignFileSchema>;

/** The file's field a body field comes from: the server names what it refuses in body terms. */
const FILE_FIELD: Record<string, string> = { whatsappId: 'connection', contactListId: 'contactList', tagListId: 'tagList', tagId: 'tagList', fileListId: 'fileList', confirmation: 'confirmation', name: 'name', scheduledAt: 'scheduledAt' };
export const fileFieldOf = (bodyField: string) => FILE_FIELD[bodyField] ?? bodyField.replace(/^message(\d)$/, 'messages.$1').replace(/^confirmationMessage(\d)$/, 'confirmationMessages.$1');

const at = (data: unknown, path: PropertyKey[]) => path.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined), data);

/** Reads and checks the file; `file: field: problem` when it does not hold a campaign. */
export async function readCampaignFile(ctx: Ctx, file: string): Promise<CampaignFile> {
  const data = await readDataFile(ctx, file);
  const unknown = unknownKeys(campaignFileSchema, data)[0];
  if (unknown) throw new UserError(`${file}: ${unknown.path}: ${unknown.message}`);
  const parsed = campaignFileSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  // A list item is named as a person counts: messages.1 is the first variant.
  const field = issue.path.map((p, i) => (typeof p === 'number' && i > 0 ? String(p + 1) : String(p))).join('.') || 'the file';
  const label = file === '-' ? 'standard input' : file;
  // A rule of this file (a list or a tag list; confirmation with its messages) says it in its own words.
  if (issue.code === 'custom') throw new UserError(`${label}: ${field}: ${issue.message}`);
  if ((issue.code === 'too_small' || issue.code === 'too_big') && issue.origin === 'array') throw new UserError(`${label}: ${field}: give 1 to ${CAMPAIGN_VARIANTS} variants (got ${(at(data, issue.path) as unknown[]).length})`);
  throw new UserError(`${label}: ${flagProblem(field, issue, at(data, issue.path))}`);
}

type Named = { id: number; name: string };

/** One row by id (a number, or digits) or by its exact name (then any case); else `field: …`. */
function pick<T extends Named>(rows: T[], wanted: string | number, what: { field: string; noun: string; list: string }): number {
  if (typeof wanted === 'number' || /^\d+$/.test(wanted)) return Number(wanted);
  const exact = rows.filter((r) => r.name === wanted);
  const found = exact.length ? exact : rows.filter((r) => r.name.trim().toLowerCase() === wanted.trim().toLowerCase());
  if (found.length === 1) return found[0]!.id;
  if (found.length === 0) throw new UserError(`${what.field}: no ${what.noun} is named "${wanted}" (see: ${what.list})`);
  throw new UserError(`${what.field}: ${found.length} ${what.noun}s are named "${wanted}" (ids ${found.map((r) => r.id).join(', ')}): give the id`);
}

/** Every page of a searched list endpoint (`records` or `files` of up to 20). */
async function searchAll<T>(api: Api, path: string, key: string, search: string): Promise<T[]> {
  const out: T[] = [];
  for (let pageNumber = 1; ; pageNumber++) {
    const page = await api.get<Record<string, unknown> & { hasMore: boolean }>(path, { query: { searchParam: search, pageNumber } });
    const rows = (page[key] ?? []) as T[];
    out.push(...rows);
    if (!page.hasMore || rows.length === 0) return out;
  }
}

const isId = (v: string | number | undefined) => typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v));

/** The body of POST /campaigns: names looked up (ids pass as they are: the server checks them), messages spread over message1..5. */
export async function campaignBody(api: Api, f: CampaignFile, scheduledAt: string | undefined): Promise<Record<string, unknown>> {
  const whatsappId = isId(f.connection) ? Number(f.connection) : pick(await api.get<Connection[]>('/whatsapp', { query: { session: 0 } }), f.connection, { field: 'connection', noun: 'connection', list: 'zapdesk connections list' });
  const lookup = async <T extends Named>(value: string | number | undefined, load: (name: string) => Promise<T[]>, what: { field: string; noun: string; list: string }) =>
    value === undefined ? undefined : isId(value) ? Number(value) : pick(await load(String(value).trim()), value, what);
  const contactListId = await lookup(f.contactList, (name) => searchAll<ContactList>(api, '/contact-lists', 'records', name), { field: 'contactList', noun: 'contact list', list: 'zapdesk contact-lists list' });
  const tagListId = await lookup(f.tagList, () => api.get<Tag[]>('/tags/list'), { field: 'tagList', noun: 'tag', list: 'the Tags page' });
  const fileListId = await lookup(f.fileList, (name) => searchAll<FileListRecord>(api, '/files', 'files', name), { field: 'fileList', noun: 'file list', list: 'zapdesk files list' });
  const body: Record<string, unknown> = { name: f.name, whatsappId, contactListId, tagListId, fileListId, confirmation: f.confirmation ?? false, scheduledAt };
  f.messages.forEach((m, i) => (body[`message${i + 1}`] = m));
  f.confirmationMessages?.forEach((m, i) => (body[`confirmationMessage${i + 1}`] = m));
  for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
  const checked = campaignCreateSchema.safeParse(body);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    throw new UserError(`${fileFieldOf(String(issue.path[0] ?? ''))}: ${issue.message}`);
  }
  return body;
}

/** What the server refused, in the file's terms: `scheduledAt: The time has passed`. */
export function inFileTerms(err: unknown): unknown {
  if (!(err instanceof AppError) || err.code !== 'ERR_VALIDATION') return err;
  const issue = err.issues?.[0];
  if (issue?.path) return new UserError(`${fileFieldOf(issue.path.split('.')[0]!)}: ${issue.message}`);
  return new UserError(err.message);
}
