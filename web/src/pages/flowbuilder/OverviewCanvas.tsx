// The overview drawn on one canvas: zoomed out, the nodes and edges nobody is handling are painted
// here, in the viewport under React Flow's transform. Their nodes stay in the DOM as transparent
// boxes (they still take the clicks, drags, double clicks and the handles' connections: see
// OverviewNode); their edges are not given to React Flow at all (useShownEdges), and a click on the
// pane picks one (pickEdge) as a click on its path would, and a hover over one shows the pointer. A drag then repaints one DOM node and its
// few edges over a bitmap, where with 300 painted DOM nodes and 300 edge SVGs Chromium re-layerized
// every paint chunk, hit-tested every layer and React Flow recomputed every edge on each frame.
// The canvas is drawn again only when what it shows changes: a node or edge added, moved, edited,
// selected or let go, the marks, the theme, or the zoom crossing a 19 % step; not on a drag's frames.
import { memo, useContext, useEffect, useLayoutEffect, useMemo, useRef, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { getBezierPath, Position, useStore, useStoreApi, ViewportPortal, type ReactFlowState, type XYPosition } from '@xyflow/react';
import { FLOW_EDGE_STROKE_PX, type FlowNodeType } from '@zapdesk/sync';
import { useTheme } from '../../theme/theme.ts';
import { iconPath, type IconName } from '../../ui/Icon.tsx';
import type { EditorEdge, EditorNode } from './flow-graph.ts';
import { EditorViewContext, marksOf, NODE_STYLE, zoomedOut } from './FlowNodeView.tsx';
import { canvasScale, drawnOnCanvas, edgeEnd, edgeHull, edgeOnCanvas, extentOf, paintNode, zoomStep, type Box, type HandleDot, type OverviewPalette, type PaintedNode } from './overview-paint.ts';

/** ButtonEdge's stroke, and React Flow's default width for hitting an edge. */
const EDGE_COLOR = '#94a3b8';
const EDGE_HIT_WIDTH = 20;

/** Finds the canvas-drawn edge under a point of the flow, if any (set by the canvas as it draws). */
export type EdgePicker = (p: XYPosition) => string | null;

const selectZoomStep = (s: ReactFlowState) => zoomStep(s.transform[2]);
const selectDrawn = (s: ReactFlowState) => (s.nodes as EditorNode[]).filter(drawnOnCanvas);
/** The same nodes (objects) as before: a drag changes only the dragged node's, which is not drawn here. */
const sameNodes = (a: EditorNode[], b: EditorNode[]) => a.length === b.length && a.every((n, i) => n === b[i]);
const liveIdsOf = (nodes: { id: string; selected?: boolean; dragging?: boolean }[]) => new Set(nodes.filter((n) => !drawnOnCanvas(n)).map((n) => n.id));

/**
 * The edges React Flow renders: in the overview only those the canvas does not draw. The same array
 * while the flow's edges and the selected or dragged nodes stay the same (a drag's frames).
 */
export function useShownEdges(overview: boolean, nodes: EditorNode[], edges: EditorEdge[]): EditorEdge[] {
  const liveKey = overview ? [...liveIdsOf(nodes)].join('\n') : null;
  return useMemo(() => {
    if (liveKey === null) return edges;
    const live = new Set(liveKey ? liveKey.split('\n') : []);
    return edges.filter((e) => !edgeOnCanvas(e, live));
  }, [liveKey, edges]);
}

const icons = new Map<IconName, Path2D>();
function iconOf(name: IconName): Path2D {
  let p = icons.get(name);
  if (!p) icons.set(name, (p = new Path2D(iconPath(name))));
  return p;
}

/** The theme's and Tailwind's colours as the page resolves them now (OverviewNode's classes use the same). */
function paletteOf(el: Element): { palette: OverviewPalette; body: (type: FlowNodeType) => string } {
  const cs = getComputedStyle(el);
  const v = (name: string, fallback: string) => cs.getPropertyValue(name).trim() || fallback;
  return {
    palette: {
      ring: { danger: v('--color-danger', '#b91c1c'), highlight: v('--color-blue-500', '#3b82f6'), warning: v('--color-amber-400', '#fbbf24') },
      running: v('--color-emerald-500', '#10b981'),
      surface: v('--color-surface', '#ffffff'),
      target: v('--color-slate-500', '#64748b'),
      source: v('--color-brand', '#0f766e'),
      font: cs.fontFamily,
    },
    // NODE_STYLE's `bg-<shade>` class is Tailwind's `--color-<shade>` variable.
    body: (type) => v(NODE_STYLE[type].color.replace(/^bg-/, '--color-'), '#64748b'),
  };
}

type Props = { edges: EditorEdge[]; pickRef: RefObject<EdgePicker | null> };

/** While zoomed out to the overview: the canvas. */
export const OverviewCanvas = memo(function OverviewCanvas(props: Props) {
  const overview = useStore(zoomedOut);
  return overview ? <OverviewPaint {...props} /> : null;
});

function OverviewPaint({ edges, pickRef }: Props) {
  const { t } = useTranslation();
  const store = useStoreApi<EditorNode>();
  const nodes = useStore(selectDrawn, sameNodes);
  const step = useStore(selectZoomStep);
  const view = useContext(EditorViewContext);
  const [theme] = useTheme();
  const ref = useRef<HTMLCanvasElement>(null);
  // Zoomed back in, every edge is React Flow's again: nothing left to pick.
  useEffect(() => () => void (pickRef.current = null), [pickRef]);

  // Before the browser paints, so a node let go never shows twice or not at all for a frame.
  useLayoutEffect(() => {
    const canvas = ref.current;
    if (!canvas) return;
    const { nodeLookup, nodes: all } = store.getState();
    const { palette, body } = paletteOf(canvas);
    const painted: PaintedNode[] = [];
    for (const n of nodes) {
      const internal = nodeLookup.get(n.id);
      const { width, height } = internal?.measured ?? {};
      // React Flow shows a node once it is measured: so does the canvas.
      if (!internal || !width || !height) continue;
      const type = n.type as FlowNodeType;
      const bounds = internal.internals.handleBounds;
      const handles: HandleDot[] = [...(bounds?.target ?? []), ...(bounds?.source ?? [])].map((h) => ({ x: h.x, y: h.y, size: h.width, type: h.type }));
      painted.push({ ...internal.internals.positionAbsolute, width, height, color: body(type), label: t(`flowbuilder.nodes.${type}`), icon: iconOf(NODE_STYLE[type].icon), marks: marksOf(view, n.id), handles });
    }
    const live = liveIdsOf(all);
    const paths: { id: string; path: Path2D; hull: Box }[] = [];
    const hulls = painted.map(({ x, y, width, height }) => ({ x, y, width, height }));
    for (const e of edges) {
      if (!edgeOnCanvas(e, live)) continue;
      const [source, target] = [nodeLookup.get(e.source), nodeLookup.get(e.target)];
      const out = source?.internals.handleBounds?.source?.find((h) => h.id === e.sourceHandle) ?? source?.internals.handleBounds?.source?.[0];
      const into = target?.internals.handleBounds?.target?.[0];
      if (!source || !target || !out || !into) continue;
      const a = edgeEnd(source.internals.positionAbsolute, out, 'source');
      const b = edgeEnd(target.internals.positionAbsolute, into, 'target');
      const [d] = getBezierPath({ sourceX: a.x, sourceY: a.y, sourcePosition: Position.Right, targetX: b.x, targetY: b.y, targetPosition: Position.Left });
      const hull = edgeHull(a, b);
      paths.push({ id: e.id, path: new Path2D(d), hull });
      hulls.push(hull);
    }
    pickRef.current = pickerOf(paths);
    const area = extentOf(hulls);
    if (!area) {
      canvas.width = 0;
      canvas.height = 0;
      return;
    }
    const scale = canvasScale(step, window.devicePixelRatio || 1, area);
    // Setting the size also clears the canvas.
    canvas.width = Math.ceil(area.width * scale);
    canvas.height = Math.ceil(area.height * scale);
    Object.assign(canvas.style, { left: `${area.x}px`, top: `${area.y}px`, width: `${area.width}px`, height: `${area.height}px` });
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(scale, 0, 0, scale, -area.x * scale, -area.y * scale);
    // Edges under the nodes, as React Flow layers them.
    ctx.lineWidth = FLOW_EDGE_STROKE_PX;
    ctx.strokeStyle = EDGE_COLOR;
    for (const p of paths) ctx.stroke(p.path);
    for (const p of painted) paintNode(ctx, p, palette);
  }, [nodes, edges, step, view, theme, t, store, pickRef]);

  return (
    <ViewportPortal>
      <canvas ref={ref} data-testid="flow-overview-canvas" aria-hidden="true" className="pointer-events-none absolute" />
    </ViewportPortal>
  );
}

/**
 * The topmost edge whose 20-unit-wide stroke holds the point (flow coordinates), as the DOM's hit path
 * would; cheap enough for a mouse move: only edges whose bounds hold the point are tested.
 */
function pickerOf(paths: { id: string; path: Path2D; hull: Box }[]): EdgePicker {
  let ctx: OffscreenCanvasRenderingContext2D | null = null;
  const r = EDGE_HIT_WIDTH / 2;
  return (p) => {
    ctx ??= new OffscreenCanvas(1, 1).getContext('2d');
    if (!ctx) return null;
    ctx.lineWidth = EDGE_HIT_WIDTH;
    for (let i = paths.length - 1; i >= 0; i--) {
      const { path, hull } = paths[i]!;
      if (p.x < hull.x - r || p.x > hull.x + hull.width + r || p.y < hull.y - r || p.y > hull.y + hull.height + r) continue;
      if (ctx.isPointInStroke(path, p.x, p.y)) return paths[i]!.id;
    }
    return null;
  };
}
