// An openai node carries an API key (spec/03 §3). It is kept sealed like a prompt's
// (auth/secret-box.ts): a saved graph stores `apiKeyEnc` (sealed) and `apiKey` masked (`••••last4`);
// answers drop `apiKeyEnc`, so no answer carries the key. The editor sends the masked value back
// unchanged: the node keeps the key it had (same node id in the flow's current graph); a new value
// replaces it.
import type { FlowGraph } from '@zapdesk/sync';
import { maskSecret, type SecretBox } from '../../auth/secret-box.ts';
import type { StoredGraph } from './dto.ts';

type Integration = Record<string, unknown> & { apiKey?: unknown; apiKeyEnc?: unknown };
type StoredNode = { id?: unknown; data?: unknown };
const MASK = '••••';

const integrationOf = (node: unknown): Integration | undefined => ((node as StoredNode | null)?.data as { typebotIntegration?: Integration } | undefined)?.typebotIntegration;

/** The graph to store: every openai node's key sealed (kept from `previous` when sent back masked). */
export function sealFlowKeys(graph: FlowGraph, previous: StoredGraph | null, box: SecretBox): FlowGraph {
  const before = new Map((previous?.nodes ?? []).map((n) => [(n as StoredNode).id, integrationOf(n)?.apiKeyEnc]));
  return {
    ...graph,
    nodes: graph.nodes.map((node) => {
      const integration = node.type === 'openai' ? integrationOf(node) : undefined;
      if (!integration) return node;
      const sent = typeof integration.apiKey === 'string' ? integration.apiKey.trim() : '';
      const kept = typeof before.get(node.id) === 'string' ? (before.get(node.id) as string) : undefined;
      const sealed = sent && !sent.startsWith(MASK) ? box.seal(sent) : kept;
      const plain = sealed ? box.open(sealed) : undefined;
      return { ...node, data: { ...node.data, typebotIntegration: { ...integration, apiKey: plain ? maskSecret(plain) : sent, apiKeyEnc: sealed } } } as typeof node;
    }),
  };
}

/** A stored graph as answers show it: without the sealed keys. */
export function withoutSealedKeys(graph: StoredGraph | null): StoredGraph | null {
  if (!graph) return graph;
  return {
    ...graph,
    nodes: graph.nodes.map((node) => {
      const integration = integrationOf(node);
      if (!integration || !('apiKeyEnc' in integration)) return node;
      const { apiKeyEnc: _sealed, ...rest } = integration;
      const n = node as StoredNode;
      return { ...n, data: { ...(n.data as object), typebotIntegration: rest } };
    }),
  };
}

/** The key of an openai node's settings: opened from `apiKeyEnc` (a graph saved before sealing: its plain `apiKey`). */
export function openFlowKey(integration: Record<string, unknown>, box: SecretBox): string | undefined {
  if (typeof integration.apiKeyEnc === 'string') return box.open(integration.apiKeyEnc);
  const plain = typeof integration.apiKey === 'string' ? integration.apiKey : '';
  return plain && !plain.startsWith(MASK) ? plain : undefined;
}
