// The overview drawn on one canvas: zoomed out, the nodes nobody is handling are painted here, in
// the viewport under React Flow's transform, and their DOM nodes are left transparent (they still
// take the clicks, drags, double clicks and the handles' connections: see OverviewNode). A drag then
// repaints one DOM node and its edges over a bitmap, where with 300 painted DOM nodes Chromium
// re-layerized all their paint chunks on every frame. The canvas is drawn again only when what it
// shows changes: a node added, moved, edited, selected or let go, the marks, the theme, or the zoom
// crossing a 19 % step; not on the frames of a drag, which moves a selected (DOM) node.
import { useContext, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore, useStoreApi, ViewportPortal, type ReactFlowState } from '@xyflow/react';
import type { FlowNodeType } from '@zapdesk/sync';
import { useTheme } from '../../theme/theme.ts';
import { iconPath, type IconName } from '../../ui/Icon.tsx';
import type { EditorNode } from './flow-graph.ts';
import { EditorViewContext, marksOf, NODE_STYLE, zoomedOut } from './FlowNodeView.tsx';
import { canvasScale, drawnOnCanvas, extentOf, paintNode, zoomStep, type HandleDot, type OverviewPalette, type PaintedNode } from './overview-paint.ts';

const selectZoomStep = (s: ReactFlowState) => zoomStep(s.transform[2]);
const selectDrawn = (s: ReactFlowState) => (s.nodes as EditorNode[]).filter(drawnOnCanvas);
/** The same nodes (objects) as before: a drag changes only the dragged node's, which is not drawn here. */
const sameNodes = (a: EditorNode[], b: EditorNode[]) => a.length === b.length && a.every((n, i) => n === b[i]);

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

/** While zoomed out to the overview: the canvas. */
export function OverviewCanvas() {
  const overview = useStore(zoomedOut);
  return overview ? <OverviewPaint /> : null;
}

function OverviewPaint() {
  const { t } = useTranslation();
  const store = useStoreApi<EditorNode>();
  const nodes = useStore(selectDrawn, sameNodes);
  const step = useStore(selectZoomStep);
  const view = useContext(EditorViewContext);
  const [theme] = useTheme();
  const ref = useRef<HTMLCanvasElement>(null);

  // Before the browser paints, so a node let go never shows twice or not at all for a frame.
  useLayoutEffect(() => {
    const canvas = ref.current;
    if (!canvas) return;
    const { nodeLookup } = store.getState();
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
    const extent = extentOf(painted);
    if (!extent) {
      canvas.width = 0;
      canvas.height = 0;
      return;
    }
    const scale = canvasScale(step, window.devicePixelRatio || 1, extent);
    // Setting the size also clears the canvas.
    canvas.width = Math.ceil(extent.width * scale);
    canvas.height = Math.ceil(extent.height * scale);
    Object.assign(canvas.style, { left: `${extent.x}px`, top: `${extent.y}px`, width: `${extent.width}px`, height: `${extent.height}px` });
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(scale, 0, 0, scale, -extent.x * scale, -extent.y * scale);
    for (const p of painted) paintNode(ctx, p, palette);
  }, [nodes, step, view, theme, t, store]);

  return (
    <ViewportPortal>
      <canvas ref={ref} data-testid="flow-overview-canvas" aria-hidden="true" className="pointer-events-none absolute" />
    </ViewportPortal>
  );
}
