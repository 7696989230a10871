// The flow builder's REST calls (spec/03 §7 "Flows and phrase campaigns"), in one place for the flow
// list, the editor and the phrase campaigns page; the shapes and their readers are in flow-wire.ts.
import type { PhraseCampaignCreateInput, PhraseCampaignUpdateInput } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { listFrom, savedGraphFrom, storedNameFrom, type FlowRecord, type PhraseCampaign } from './flow-wire.ts';

export * from './flow-wire.ts';

export const flowApi = {
  list: async () => listFrom<FlowRecord>(await api.get('/flowbuilder'), ['flows']),
  create: (name: string) => api.post<unknown>('/flowbuilder', { name }),
  rename: (flowId: number, name: string) => api.put<unknown>('/flowbuilder', { flowId, name }),
  remove: (flowId: number) => api.delete<unknown>(`/flowbuilder/${flowId}`),
  duplicate: (flowId: number) => api.post<unknown>('/flowbuilder/duplicate', { flowId }),
  load: async (flowId: number) => savedGraphFrom(await api.get(`/flowbuilder/flow/${flowId}`)),
  save: (body: { idFlow: number; nodes: unknown[]; connections: unknown[] }) => api.post<unknown>('/flowbuilder/flow', body),
  /** POST /flowbuilder/img | audio | content: multipart `medias`, `body`, `fromMe`. */
  upload: async (kind: 'img' | 'audio' | 'content', file: File): Promise<string> => {
    const form = new FormData();
    form.append('medias', file, file.name);
    form.append('body', file.name);
    form.append('fromMe', 'true');
    return storedNameFrom(await api.post(`/flowbuilder/${kind}`, form));
  },
};

export const phraseApi = {
  list: async () => listFrom<PhraseCampaign>(await api.get('/flowcampaign'), ['list']),
  create: (body: PhraseCampaignCreateInput) => api.post<unknown>('/flowcampaign', body),
  update: (body: PhraseCampaignUpdateInput) => api.put<unknown>('/flowcampaign', body),
  remove: (id: number) => api.delete<unknown>(`/flowcampaign/${id}`),
};
