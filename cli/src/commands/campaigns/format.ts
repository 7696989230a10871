// How a campaign and its report read: the list's columns, one campaign as a record, the report's
// totals as a record or one plain progress line. Shared by the commands of this folder.
import type { Campaign, CampaignReport, CampaignShipping, CampaignTotals } from '@zapdesk/sync';
import { column, type Shown } from '../../present.ts';

export const campaignColumns = [
  column<Campaign>('id', (c) => c.id),
  column<Campaign>('name', (c) => c.name, { min: 10 }),
  column<Campaign>('status', (c) => statusOf(c)),
  column<Campaign>('connection', (c) => c.whatsapp?.name, { drop: 2 }),
  column<Campaign>('contact list', (c) => c.contactList?.name, { drop: 3 }),
  column<Campaign>('scheduled', (c) => when(c.scheduledAt), { drop: 1 }),
  column<Campaign>('completed', (c) => when(c.completedAt), { drop: 0 }),
];

/** The status, and whether a delete of it was cut short (deleting it again finishes it). */
const statusOf = (c: Campaign) => (c.deleting ? `${c.status} (being deleted)` : c.status);

/** A time as the user's clock reads it, to the minute: `2026-11-28 09:30`. */
export function when(iso: string | null): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const variants = (c: Campaign, prefix: 'message' | 'confirmationMessage') =>
  [1, 2, 3, 4, 5].map((i) => c[`${prefix}${i}` as 'message1']).filter((m) => m.trim() !== '');

const named = (ref: { id: number; name: string } | null, id: number | null) => (ref ? `${ref.name} (${ref.id})` : id);

export const showCampaign = (c: Campaign): Shown => ({
  kind: 'record',
  title: `Campaign ${c.id}: ${c.name}`,
  fields: [
    ['status', statusOf(c)],
    ['connection', named(c.whatsapp, c.whatsappId)],
    ['contact list', named(c.contactList, c.contactListId)],
    ['tag list', c.tagId],
    ['file list', c.fileListId],
    ['scheduled', when(c.scheduledAt)],
    ['completed', when(c.completedAt)],
    ['confirmation', c.confirmation],
    ...variants(c, 'confirmationMessage').map((m, i): [string, unknown] => [`confirmation ${i + 1}`, oneLine(m)]),
    ...variants(c, 'message').map((m, i): [string, unknown] => [`message ${i + 1}`, oneLine(m)]),
    ['media', c.mediaName],
    ['editable', c.editable],
  ],
});

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ⏎ ');

/** Recipients the dispatch is done with: sent (or further), failed, skipped or declined. */
export const handled = (t: CampaignTotals) => t.sent + t.failed + t.skippedInvalid + t.skippedOptOut + t.declined;

export const percent = (share: number) => `${Math.floor(share * 100)}%`;

/** `EM_ANDAMENTO 4/10 handled (40%): 4 sent, 1 delivered, …`: one line of the watch in a pipe. */
export function progressLine(r: Pick<CampaignReport, 'campaign' | 'totals'>): string {
  const t = r.totals;
  const share = t.recipients ? handled(t) / t.recipients : 0;
  const parts = [`${t.sent} sent`, `${t.delivered} delivered`, `${t.read} read`, `${t.failed} failed`, `${t.pending} pending`, `${t.queued} queued`];
  if (r.campaign.confirmation) parts.push(`${t.awaitingConfirmation} awaiting confirmation`, `${t.confirmed} confirmed`, `${t.declined} declined`);
  parts.push(`${t.skippedInvalid + t.skippedOptOut} skipped`);
  const wait = notStarted(r.campaign);
  return `campaign ${r.campaign.id} ${r.campaign.status}: ${handled(t)}/${t.recipients} handled (${percent(share)}), ${parts.join(', ')}${wait ? `; ${wait}` : ''}`;
}

/** What a watch of a campaign that has not started waits for. */
export function notStarted(c: Pick<Campaign, 'id' | 'status' | 'scheduledAt'>): string | undefined {
  if (c.status === 'INATIVA') return `not started: zapdesk campaigns start ${c.id}`;
  if (c.status === 'PROGRAMADA') return `starts at ${when(c.scheduledAt)}`;
  return undefined;
}

export const showTotals = (r: CampaignReport): Shown => {
  const t = r.totals;
  return {
    kind: 'record',
    title: `Campaign ${r.campaign.id}: ${r.campaign.name} (${r.campaign.status})`,
    fields: [
      ['recipients', t.recipients],
      ['handled', `${handled(t)} (${percent(t.recipients ? handled(t) / t.recipients : 0)})`],
      ['progress', `${percent(t.progress)} delivered of ${t.valid} valid numbers`],
      ['sent', t.sent],
      ['delivered', t.delivered],
      ['read', t.read],
      ['failed', t.failed],
      ['pending', t.pending],
      ['queued', t.queued],
      ...(r.campaign.confirmation
        ? ([
            ['awaiting confirmation', t.awaitingConfirmation],
            ['confirmed', t.confirmed],
            ['declined', t.declined],
          ] as [string, unknown][])
        : []),
      ['skipped (invalid)', t.skippedInvalid],
      ['skipped (opted out)', t.skippedOptOut],
      ['completed', when(r.campaign.completedAt)],
    ],
  };
};

export const recipientColumns = [
  column<CampaignShipping>('number', (s) => s.number),
  column<CampaignShipping>('name', (s) => s.name, { min: 8 }),
  column<CampaignShipping>('state', (s) => s.state),
  column<CampaignShipping>('reason', (s) => s.reason, { drop: 1 }),
  column<CampaignShipping>('variant', (s) => s.variant, { drop: 0 }),
  // deliveredAt is when the network accepted the message: sent, not yet delivered to the phone.
  column<CampaignShipping>('sent at', (s) => when(s.deliveredAt), { drop: 2 }),
];
