// The editor's canvas (spec/03 §2): React Flow with the nodes and edges, zoom controls, the dotted
// background, the minimap and the floating menu. Zoomed out to the overview, most edges are painted
// on OverviewCanvas rather than given to React Flow: a click on the pane over one selects it, as a
// click on its path would, and the pointer shows over it as over a drawn one.
import { useCallback, useMemo, useRef, type MouseEvent as ReactMouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Background, BackgroundVariant, ControlButton, Controls, MiniMap, Panel, ReactFlow, useReactFlow, useStore,
  type Connection, type NodeMouseHandler, type OnEdgesChange, type OnNodeDrag, type OnNodesChange, type XYPosition,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { FLOW_EDGE_TYPE, type FlowNodeType } from '@zapdesk/sync';
import { useTheme } from '../../theme/theme.ts';
import { edgeTypes } from './ButtonEdge.tsx';
import { useFitFlow } from './fit-view.ts';
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
  /** Before a delete React Flow makes itself: an undo step. */
  onBeforeChange: () => void;
  /** A node pressed, maybe to drag it: takes the undo step's "before", and returns what records it. */
  onBeginDrag: () => () => void;
  onPick: (type: FlowNodeType) => void;
};

// Every prop handed to React Flow is stable: it copies its props into its store on every render, and
// the editor renders on every drag frame.
export function FlowCanvas({ nodes, edges, setNodes, setEdges, onNodesChange, onEdgesChange, onConnect, onHighlight, onEdit, onBeforeChange, onBeginDrag, onPick }: Props) {
  const { screenToFlowPosition } = useReactFlow();
  const [theme] = useTheme();
  const { t } = useTranslation();
  // React Flow's own controls and minimap, named in the reader's language.
  const ariaLabels = useMemo(
    () => ({
      'controls.ariaLabel': t('flowbuilder.canvas.controls'),
      'controls.zoomIn.ariaLabel': t('flowbuilder.canvas.zoomIn'),
      'controls.zoomOut.ariaLabel': t('flowbuilder.canvas.zoomOut'),
      'controls.fitView.ariaLabel': t('flowbuilder.canvas.fitView'),
      'minimap.ariaLabel': t('flowbuilder.canvas.minimap'),
    }),
    [t],
  );
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
  // A drag starts as the button goes down (nodeDragThreshold 0), so the node keeps the point that was
  // grabbed under the pointer: with React Flow's default of 1 px the drag began at the first mouse
  // move, grabbing the node at the point the pointer had moved to, and the node stayed that first
  // move (~5 px) behind the pointer to the end. A click is thus a drag that moves nothing: it is no
  // undo step and leaves the flow saved.
  const drag = useRef<{ record: () => void; from: Map<string, XYPosition> } | null>(null);
  const onNodeDragStart = useCallback<OnNodeDrag<EditorNode>>(
    (_, __, dragged) => {
      drag.current = { record: onBeginDrag(), from: new Map(dragged.map((n) => [n.id, n.position])) };
    },
    [onBeginDrag],
  );
  const onNodeDragStop = useCallback<OnNodeDrag<EditorNode>>((_, __, dragged) => {
    const started = drag.current;
    drag.current = null;
    const moved = (n: EditorNode) => {
      const from = started?.from.get(n.id);
      return !from || from.x !== n.position.x || from.y !== n.position.y;
    };
    if (started && dragged.some(moved)) started.record();
  }, []);
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
      onNodeDragStart={onNodeDragStart}
      onNodeDragStop={onNodeDragStop}
      nodeDragThreshold={0}
      onBeforeDelete={onBeforeDelete}
      colorMode={theme === 'dark' ? 'dark' : 'light'}
      ariaLabelConfig={ariaLabels}
      style={CANVAS_STYLE}
      zoomOnDoubleClick={false}
      deleteKeyCode={DELETE_KEYS}
      minZoom={0.1}
      defaultEdgeOptions={EDGE_OPTIONS}
      proOptions={PRO_OPTIONS}
    >
      <DotGrid />
      <OverviewCanvas edges={edges} pickRef={pickEdge} />
      {/* Fit View fits clear of the minimap, the controls and the menu, as the view opens (fit-view.ts). */}
      <Controls showInteractive={false} showFitView={false}>
        <FitViewButton />
      </Controls>
      {/* Square, unstroked nodes: at a minimap's scale their corners are under a pixel, and the
          rounded, stroked ones were most of what repainting it cost on every frame of a drag. */}
      {/* Framed, with what lies outside the view shaded: its mask in the canvas's own colour left the
          nodes out of view floating beside a white box. */}
      <MiniMap
        pannable
        zoomable
        nodeColor={minimapColor}
        nodeBorderRadius={0}
        nodeStrokeWidth={0}
        maskColor={theme === 'dark' ? 'rgb(0 0 0 / 0.45)' : 'rgb(100 116 139 / 0.22)'}
        className="!hidden overflow-hidden rounded-md border border-line shadow-sm md:!block"
      />
      <Panel position="top-left">
        <Palette onPick={onPick} />
      </Panel>
    </ReactFlow>
  );
}

/** React Flow's Fit View button (its label, class and icon), fitting as the editor opens a flow. */
function FitViewButton() {
  const fit = useFitFlow();
  const label = useStore((s) => s.ariaLabelConfig['controls.fitView.ariaLabel']);
  return (
    <ControlButton onClick={fit} className="react-flow__controls-fitview" title={label} aria-label={label}>
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 30" aria-hidden="true">
        <path d="M3.692 4.63c0-.53.4-.938.939-.938h5.215V0H4.708C2.13 0 0 2.054 0 4.63v5.216h3.692V4.631zM27.354 0h-5.2v3.692h5.17c.53 0 .984.4.984.939v5.215H32V4.631A4.624 4.624 0 0027.354 0zm.954 24.83c0 .532-.4.94-.939.94h-5.215v3.768h5.215c2.577 0 4.631-2.13 4.631-4.707v-5.139h-3.692v5.139zm-23.677.94c-.531 0-.939-.4-.939-.94v-5.138H0v5.139c0 2.577 2.13 4.707 4.708 4.707h5.138V25.77H4.631z" />
      </svg>
    </ControlButton>
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
