// What the campaign dialog offers in its selects and chips: connections and tags from the synced
// state, contact lists (GET /contact-lists/list), file lists (GET /files, every page) and the
// campaign settings (custom variables and the zone of the preview's greeting). Read once per dialog:
// a running campaign pokes the company at every send, and the selects need not follow that.
import type { CampaignSettings, ContactList, ContactListItem, FileListRecord } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { useResource } from '../../hooks/use-resource.ts';
import { useSyncedList } from '../../sync/use-synced.ts';
import { settingsFromRows } from './campaign-form.ts';

/** File lists are paged; a company has few, so the dialog reads them all (bounded, in case). */
const MAX_FILE_PAGES = 20;

async function loadAllFileLists(): Promise<FileListRecord[]> {
  const all: FileListRecord[] = [];
  for (let pageNumber = 1; pageNumber <= MAX_FILE_PAGES; pageNumber++) {
    const body = await api.get<{ files: FileListRecord[]; hasMore: boolean }>('/files', { query: { pageNumber } });
    all.push(...body.files);
    if (!body.hasMore) break;
  }
  return all;
}

export function loadCampaignSettings(): Promise<CampaignSettings> {
  return api.get<{ key: string; value: string }[]>('/campaign-settings').then(settingsFromRows);
}

export type Option = { value: string; label: string };

export function useCampaignOptions() {
  const connections = useSyncedList('connection') ?? [];
  const tags = useSyncedList('tag') ?? [];
  const lists = useResource(() => api.get<ContactList[]>('/contact-lists/list'), []);
  const files = useResource(loadAllFileLists, []);
  const settings = useResource(loadCampaignSettings, []);

  const byName = (a: Option, b: Option) => a.label.localeCompare(b.label);
  return {
    connections: connections.map((c) => ({ value: String(c.id), label: c.name })).sort(byName),
    tags: tags.map((t) => ({ value: String(t.id), label: t.name })).sort(byName),
    contactLists: (lists.data ?? []).map((l) => ({ value: String(l.id), label: l.name })),
    fileLists: (files.data ?? []).map((f) => ({ value: String(f.id), label: f.name })).sort(byName),
    settings: settings.data,
  };
}

export type PreviewContact = { name: string; number: string; email: string };

/** The first contact of the chosen list (by name, as the list shows them), for the preview; null without a list or contacts. */
export function useListSample(contactListId: string): PreviewContact | null {
  const sample = useResource(
    () =>
      Number(contactListId) > 0
        ? api.get<{ contacts: ContactListItem[] }>('/contact-list-items', { query: { contactListId, pageNumber: 1 } }).then(({ contacts: [first] }) => (first ? { name: first.name, number: first.number, email: first.email ?? '' } : null))
        : Promise.resolve(null),
    [contactListId],
  );
  return sample.data ?? null;
}
