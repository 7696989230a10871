// The company's prompts (GET /prompt, one list) for the prompts page and the pickers of the queue and
// connection modals; read again after pokes, so another admin's change shows. Without the plan's AI
// feature nothing is asked (the server would refuse) and the list is empty.
import type { Prompt } from '@zapdesk/sync';
import { planAllows } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { useResource } from '../../hooks/use-resource.ts';
import { useSession } from '../../session/SessionProvider.tsx';
import { useRefreshOnPoke } from '../../sync/use-refresh-on-poke.ts';

export function usePrompts(): { prompts: Prompt[]; loading: boolean; allowed: boolean; reload: () => void } {
  const { flags } = useSession();
  const allowed = planAllows(flags ?? null, 'openAi');
  const resource = useResource(async () => (allowed ? (await api.get<{ prompts: Prompt[] }>('/prompt')).prompts : []), [allowed]);
  useRefreshOnPoke(resource.refresh);
  return { prompts: resource.data ?? [], loading: resource.loading, allowed, reload: resource.reload };
}
