// Every queue integration of the company (GET /queueIntegration/ without a page) for the pickers of
// the queue and connection modals; read again after pokes. Without the plan's integrations feature
// nothing is asked and the list is empty.
import type { QueueIntegration } from '@zapdesk/sync';
import { planAllows } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { useResource } from '../../hooks/use-resource.ts';
import { useSession } from '../../session/SessionProvider.tsx';
import { useRefreshOnPoke } from '../../sync/use-refresh-on-poke.ts';

export function useAllIntegrations(): { integrations: QueueIntegration[]; allowed: boolean } {
  const { flags } = useSession();
  const allowed = planAllows(flags ?? null, 'integrations');
  const resource = useResource(
    async () => (allowed ? (await api.get<{ queueIntegrations: QueueIntegration[] }>('/queueIntegration/')).queueIntegrations : []),
    [allowed],
  );
  useRefreshOnPoke(resource.refresh);
  return { integrations: resource.data ?? [], allowed };
}
