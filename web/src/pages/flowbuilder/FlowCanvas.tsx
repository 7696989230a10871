// The editor's canvas (spec/03 §2): React Flow with the nodes and edges, zoom controls, the dotted
// background, the minimap and the floating menu. Zoomed out to the overview, most edges are painted
// on OverviewCanvas rather than given to React Flow: a click on the pane over one selects it, as a
// click on its path would, and the pointer shows over it as over a drawn one.
import { useCallback, useRef, type MouseEvent as ReactMouseEvent } from 'react';
import {
  Background, BackgroundVariant, Controls, MiniMap, Panel, ReactFlow, useReactFlow, useStore,
  type Connection, type NodeMouseHandler, type OnEdgesChange, type OnNodesChange,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { FLOW_EDGE_TYPE, type FlowNodeType } from '@zapdesk/sync';
import { useTheme } from '../../theme/theme.ts';
import { edgeTypes } from './ButtonEdge.tsx';
import type { EditorEdge, EditorNode } from './flow-graph.ts';
import { nodeTypes, zoomedOut } from './FlowNodeView.tsx';
import { OverviewCanvas, useShownEdges, type EdgePicker } from './OverviewCanvas.tsx';
import { Palette } from './Palette.tsx';

/** The minimap draws each node in its header's colour (NODE_STYLE's Tailwind shades). */
const MINIMAP_COLORS: Partial<Record<FlowNodeType, string>> = {
  start: '#059669', message: '#0284c7', interval: '#d97706', condition: '#7c3aed', menu: '#4f46e5', img: '#db2777', audio: '#db2777', video: '#db2777',
  singleBlock: '#0e7490', randomizer: '#c026d3', ticket: '#334155', question: '#0f766e', typebot: '#ea580c', openai: '#27272a',
};

const minimapColor = (n: { type?: string }) => MINIMAP_COLORS[n.type as FlowNodeType] ?? '#94a3b8';
/** spec/03 §9: Backspace and Delete remove the selection. */
const DELETE_KEYS = ['Backspace', 'Delete'];
const EDGE_OPTIONS = { type: FLOW_EDGE_TYPE };
const PRO_OPTIONS = { hideAttribution: true };
const CANVAS_STYLE = { backgroundColor: 'var(--zd-canvas)' };

type Props = {
  nodes: EditorNode[];
  edges: EditorEdge[];
  setNodes: (update: (all: EditorNode[]) => EditorNode[]) => void;
  setEdges: (update: (all: EditorEdge[]) => EditorEdge[]) => void;
  onNodesChange: OnNodesChange<EditorNode>;
  onEdgesChange: OnEdgesChange<EditorEdge>;
  onConnect: (c: Connection) => void;
  /** A node clicked (highlight it), or nothing (an edge or the pane clicked). */
  onHighlight: (nodeId: string | null) => void;
  onEdit: (nodeId: string) => void;
  /** Before a change React Flow makes itself (a drag, a delete): an undo step. */
  onBeforeChange: () => void;
  onPick: (type: FlowNodeType) => void;
};

// Every prop handed to React Flow is stable: it copies its props into its store on every render, and
// the editor renders on every drag frame.
export function FlowCanvas({ nodes, edges, setNodes, setEdges, onNodesChange, onEdgesChange, onConnect, onHighlight, onEdit, onBeforeChange, onPick }: Props) {
  const { screenToFlowPosition } = useReactFlow();
  const [theme] = useTheme();
  const onNodeClick = useCallback<NodeMouseHandler<EditorNode>>((_, node) => onHighlight(node.id), [onHighlight]);
  const onNodeDoubleClick = useCallback<NodeMouseHandler<EditorNode>>((_, node) => onEdit(node.id), [onEdit]);
  const clearHighlight = useCallback(() => onHighlight(null), [onHighlight]);
  const overview = useStore(zoomedOut);
  const shownEdges = useShownEdges(overview, nodes, edges);
  const pickEdge = useRef<EdgePicker | null>(null);
  const onPaneClick = useCallback(
    (e: ReactMouseEvent) => {
      onHighlight(null);
      const picked = pickEdge.current?.(screenToFlowPosition({ x: e.clientX, y: e.clientY }));
      if (!picked) return;
      setNodes((all) => all.map((n) => (n.selected ? { ...n, selected: false } : n)));
      setEdges((all) => all.map((x) => (x.id === picked ? { ...x, selected: true } : x.selected ? { ...x, selected: false } : x)));
    },
    [screenToFlowPosition, onHighlight],
  );
  // The pointer over a painted edge, as over a drawn one (not while a button is down: a drag).
  const onPaneMouseMove = useCallback(
    (e: ReactMouseEvent) => {
      if (e.buttons !== 0) return;
      const over = (pickEdge.current?.(screenToFlowPosition({ x: e.clientX, y: e.clientY })) ?? null) !== null;
      (e.currentTarget as HTMLElement).style.cursor = over ? 'pointer' : '';
    },
    [screenToFlowPosition],
  );
  const onBeforeDelete = useCallback(async () => {
    onBeforeChange();
    return true;
  }, [onBeforeChange]);

  return (
    <ReactFlow<EditorNode, EditorEdge>
      nodes={nodes}
      edges={shownEdges}
      nodeTypes={nodeTypes}
      edgeTypes={edgeTypes}
      onNodesChange={onNodesChange}
      onEdgesChange={onEdgesChange}
      onConnect={onConnect}
      onNodeClick={onNodeClick}
      onNodeDoubleClick={onNodeDoubleClick}
      onEdgeClick={clearHighlight}
      onPaneClick={onPaneClick}
      onPaneMouseMove={onPaneMouseMove}
      onNodeDragStart={onBeforeChange}
      onBeforeDelete={onBeforeDelete}
      colorMode={theme === 'dark' ? 'dark' : 'light'}
      style={CANVAS_STYLE}
      zoomOnDoubleClick={false}
      deleteKeyCode={DELETE_KEYS}
      minZoom={0.1}
      defaultEdgeOptions={EDGE_OPTIONS}
      proOptions={PRO_OPTIONS}
    >
      <DotGrid />
      <OverviewCanvas edges={edges} pickRef={pickEdge} />
      <Controls showInteractive={false} />
      {/* Square, unstroked nodes: at a minimap's scale their corners are under a pixel, and the
          rounded, stroked ones were most of what repainting it cost on every frame of a drag. */}
      <MiniMap pannable zoomable nodeColor={minimapColor} nodeBorderRadius={0} nodeStrokeWidth={0} className="!hidden md:!block" />
      <Panel position="top-left">
        <Palette onPick={onPick} />
      </Panel>
    </ReactFlow>
  );
}

/**
 * The canvas's dot grid, while the nodes draw as cards. Zoomed out to the overview its dots are a
 * few pixels apart, a texture rather than a guide (design tools fade their grids out there too), and
 * re-painting its pattern under a dragged node was what made a large flow miss frames.
 */
function DotGrid() {
  const overview = useStore(zoomedOut);
  return overview ? null : <Background variant={BackgroundVariant.Dots} gap={18} size={1.5} />;
}
