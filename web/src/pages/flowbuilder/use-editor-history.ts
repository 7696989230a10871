// Undo/redo for the editor (snapshots of nodes and edges taken before each change: a node added,
// edited, duplicated, deleted, dragged, an edge drawn or removed), and a view of the flow that only
// changes when what the flow is changes, so the save check does not re-run on every drag frame.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { EditorEdge, EditorNode } from './flow-graph.ts';

type Snapshot = { nodes: EditorNode[]; edges: EditorEdge[] };
const LIMIT = 100;

export function useHistory(nodes: EditorNode[], edges: EditorEdge[], setNodes: (n: EditorNode[]) => void, setEdges: (e: EditorEdge[]) => void) {
  const current = useRef<Snapshot>({ nodes, edges });
  current.current = { nodes, edges };
  const past = useRef<Snapshot[]>([]);
  const future = useRef<Snapshot[]>([]);
  const [, setVersion] = useState(0);
  const bump = () => setVersion((v) => v + 1);

  const restore = (s: Snapshot) => {
    setNodes(s.nodes);
    setEdges(s.edges);
  };

  /** An undo step back to `before`: the graph as it is now, or as it was when a drag began. */
  const push = useCallback((before: Snapshot = current.current) => {
    past.current = [...past.current.slice(-(LIMIT - 1)), before];
    future.current = [];
    bump();
  }, []);
  const snapshot = useCallback(() => current.current, []);
  const undo = useCallback(() => {
    const prev = past.current.pop();
    if (!prev) return;
    future.current.push(current.current);
    restore(prev);
    bump();
  }, []);
  const redo = useCallback(() => {
    const next = future.current.pop();
    if (!next) return;
    past.current.push(current.current);
    restore(next);
    bump();
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || (e.target as HTMLElement | null)?.closest('input, textarea, select, dialog')) return;
      const key = e.key.toLowerCase();
      if (key === 'z' && !e.shiftKey) undo();
      else if (key === 'y' || (key === 'z' && e.shiftKey)) redo();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [undo, redo]);

  return { push, snapshot, undo, redo, canUndo: past.current.length > 0, canRedo: future.current.length > 0 };
}

/** The same object as long as node ids, types, data and the edges' ends stay the same. */
export function useStableStructure(nodes: EditorNode[], edges: EditorEdge[]): Snapshot {
  const last = useRef<Snapshot>({ nodes, edges });
  return useMemo(() => {
    const prev = last.current;
    const sameNodes = prev.nodes.length === nodes.length && prev.nodes.every((n, i) => n.id === nodes[i]!.id && n.type === nodes[i]!.type && n.data === nodes[i]!.data);
    const sameEdges = prev.edges.length === edges.length && prev.edges.every((e, i) => e.source === edges[i]!.source && e.target === edges[i]!.target && e.sourceHandle === edges[i]!.sourceHandle);
    if (sameNodes && sameEdges) return prev;
    last.current = { nodes, edges };
    return last.current;
  }, [nodes, edges]);
}
