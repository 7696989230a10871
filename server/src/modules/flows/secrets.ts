// An openai node carries secrets (spec/03 §3): its OpenAI API key and the key of the voice service
// that speaks its answers. They are kept sealed like a prompt's key (auth/secret-box.ts): a saved
// graph stores `apiKeyEnc` / `voiceKeyEnc` (sealed) and `apiKey` / `voiceKey` masked (`••••last4`);
// answers drop the sealed fields, so no answer carries a key. The editor sends the masked value
// back unchanged: the node keeps the key it had (same node id in the flow's current graph); a new
// value replaces it, and an emptied voice key is removed (the voice is optional).
import type { FlowGraph } from '@zapdesk/sync';
import { maskSecret, type SecretBox } from '../../auth/secret-box.ts';
import type { StoredGraph } from './dto.ts';

type Integration = Record<string, unknown>;
type StoredNode = { id?: unknown; data?: unknown };
const MASK = '••••';

/** The node's secret fields, each with the field its sealed value is stored under. */
const SECRET_FIELDS = [
  { plain: 'apiKey', sealed: 'apiKeyEnc' },
  { plain: 'voiceKey', sealed: 'voiceKeyEnc' },
] as const;
export type FlowSecretField = (typeof SECRET_FIELDS)[number]['plain'];

const integrationOf = (node: unknown): Integration | undefined => ((node as StoredNode | null)?.data as { typebotIntegration?: Integration } | undefined)?.typebotIntegration;

/** The graph to store: every openai node's keys sealed (kept from `previous` when sent back masked). */
export function sealFlowKeys(graph: FlowGraph, previous: StoredGraph | null, box: SecretBox): FlowGraph {
  const before = new Map((previous?.nodes ?? []).map((n) => [(n as StoredNode).id, integrationOf(n)]));
  return {
    ...graph,
    nodes: graph.nodes.map((node) => {
      const integration = node.type === 'openai' ? integrationOf(node) : undefined;
      if (!integration) return node;
      const sealedNode: Integration = { ...integration };
      for (const field of SECRET_FIELDS) {
        const sent = typeof integration[field.plain] === 'string' ? (integration[field.plain] as string).trim() : '';
        const keptValue = before.get(node.id)?.[field.sealed];
        const kept = typeof keptValue === 'string' && sent.startsWith(MASK) ? keptValue : undefined;
        const sealed = sent && !sent.startsWith(MASK) ? box.seal(sent) : kept;
        const plain = sealed ? box.open(sealed) : undefined;
        sealedNode[field.plain] = plain ? maskSecret(plain) : sent;
        if (sealed) sealedNode[field.sealed] = sealed;
        else delete sealedNode[field.sealed];
      }
      return { ...node, data: { ...node.data, typebotIntegration: sealedNode } } as typeof node;
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
      if (!integration || !SECRET_FIELDS.some((f) => f.sealed in integration)) return node;
      const rest = { ...integration };
      for (const f of SECRET_FIELDS) delete rest[f.sealed];
      const n = node as StoredNode;
      return { ...n, data: { ...(n.data as object), typebotIntegration: rest } };
    }),
  };
}

/** A key of an openai node's settings: opened from its sealed field (a graph saved before sealing: the plain value). */
export function openFlowKey(integration: Integration, box: SecretBox, field: FlowSecretField = 'apiKey'): string | undefined {
  const sealed = SECRET_FIELDS.find((f) => f.plain === field)!.sealed;
  if (typeof integration[sealed] === 'string') return box.open(integration[sealed]);
  const plain = typeof integration[field] === 'string' ? integration[field] : '';
  return plain && !plain.startsWith(MASK) ? plain : undefined;
}
