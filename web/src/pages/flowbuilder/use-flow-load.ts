// Loading the flow (spec/03 §9: 500 ms after entering the page, a spinner meanwhile): its graph into
// the editor, its name for the header, its answer names for the variable pickers, then the view fitted.
import { useEffect, useState } from 'react';
import { FLOW_LOAD_DELAY_MS } from '@zapdesk/sync';
import { writeStoredJson } from '../../session/storage.ts';
import { toastError } from '../../ui/toast/toast-error.ts';
import { flowApi } from '../flowbuilders/flow-api.ts';
import { answerKeysOf, toEditor, type EditorEdge, type EditorNode } from './flow-graph.ts';

type Loaded = { setNodes: (nodes: EditorNode[]) => void; setEdges: (edges: EditorEdge[]) => void; fit: () => void };

/** Loads flow `idFlow` once per id; the callbacks are those of the first render (React's setters, a stable fit). */
export function useFlowLoad(idFlow: number, { setNodes, setEdges, fit }: Loaded) {
  const [name, setName] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    if (!Number.isInteger(idFlow) || idFlow <= 0) return;
    let live = true;
    const timer = setTimeout(() => {
      flowApi.load(idFlow).then(
        (loaded) => {
          if (!live) return;
          const g = toEditor(loaded.graph);
          setNodes(g.nodes);
          setEdges(g.edges);
          setName(loaded.name);
          writeStoredJson('variables', answerKeysOf(g.nodes));
          setLoading(false);
          // Once React Flow has measured the nodes.
          requestAnimationFrame(() => fit());
        },
        (err: unknown) => {
          if (!live) return;
          toastError(err);
          setLoading(false);
        },
      );
    }, FLOW_LOAD_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [idFlow]);
  return { name, loading };
}
