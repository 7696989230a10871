// Fitting the flow to the canvas without hiding any of it under what floats on the canvas (the
// minimap, the zoom controls, the floating menu). React Flow's fitView pads the flow evenly, so the
// nodes of a fitted flow's bottom-right corner opened under the minimap, where nobody could see or
// grab them without panning first. Each overlay sits in a corner, and the flow clears it by staying
// either beside it or above/below it: of those ways, the one that leaves the flow the largest zoom.
import { useCallback } from 'react';
import { getViewportForBounds, useReactFlow, useStoreApi } from '@xyflow/react';

export type Rect = { x: number; y: number; width: number; height: number };
type Side = 'top' | 'right' | 'bottom' | 'left';
export type Paddings = Record<Side, number>;

/** The margin around a fitted flow on every side, as React Flow's padding of 0.15 had it (~6.5 %). */
const MARGIN = 0.065;
/** Room between an overlay and the nearest node. */
const GAP = 12;
/** An overlay this close to an edge of the canvas is docked to it (React Flow's panels sit 15 px in). */
const DOCKED = 48;
/** The editor never fits closer than this: a small flow opens at its real size. */
export const FIT_MAX_ZOOM = 1;

/** The padding each edge the overlay is docked to would need for the flow to clear it from that side. */
function clearances(canvas: { width: number; height: number }, o: Rect): Partial<Paddings>[] {
  const out: Partial<Paddings>[] = [];
  if (o.y <= DOCKED) out.push({ top: o.y + o.height + GAP });
  if (canvas.height - (o.y + o.height) <= DOCKED) out.push({ bottom: canvas.height - o.y + GAP });
  if (o.x <= DOCKED) out.push({ left: o.x + o.width + GAP });
  if (canvas.width - (o.x + o.width) <= DOCKED) out.push({ right: canvas.width - o.x + GAP });
  return out;
}

/**
 * The padding, in px of the canvas, that fits `bounds` (the flow's nodes) clear of every overlay
 * (rects in the canvas's px) docked to an edge; overlays in the middle of the canvas are not avoided.
 */
export function fitPadding(canvas: { width: number; height: number }, bounds: { width: number; height: number }, overlays: Rect[]): Paddings {
  const base: Paddings = { top: canvas.height * MARGIN, bottom: canvas.height * MARGIN, left: canvas.width * MARGIN, right: canvas.width * MARGIN };
  const options = overlays.map((o) => clearances(canvas, o)).filter((c) => c.length > 0);
  const zoomWith = (p: Paddings) => Math.min((canvas.width - p.left - p.right) / Math.max(1, bounds.width), (canvas.height - p.top - p.bottom) / Math.max(1, bounds.height));
  let best = base;
  let bestZoom = -Infinity;
  // Every combination of one clearance per overlay (three overlays: eight).
  const visit = (i: number, p: Paddings) => {
    if (i === options.length) {
      const zoom = zoomWith(p);
      if (zoom > bestZoom) [best, bestZoom] = [p, zoom];
      return;
    }
    for (const c of options[i]!) {
      const next = { ...p };
      for (const side of Object.keys(c) as Side[]) next[side] = Math.max(next[side], c[side]!);
      visit(i + 1, next);
    }
  };
  visit(0, base);
  return { top: Math.ceil(best.top), right: Math.ceil(best.right), bottom: Math.ceil(best.bottom), left: Math.ceil(best.left) };
}

type Lookup = Map<string, { measured: { width?: number; height?: number } }>;
const measured = (lookup: Lookup) => lookup.size > 0 && [...lookup.values()].every((n) => n.measured.width !== undefined && n.measured.height !== undefined);

/**
 * Fits the view to the flow clear of the canvas's panels (React Flow's `.react-flow__panel`: the
 * minimap, the controls, the floating menu), as they are laid out now: a panel the layout hides (the
 * minimap on a narrow screen) takes no room. The viewport is set here rather than by React Flow's
 * fitView, which applies the options given at the call only once the nodes are measured, and the
 * padding depends on the flow's measured size: a flow just loaded is fitted as soon as React Flow
 * has measured its nodes (in the same callback, before the browser paints them).
 */
export function useFitFlow(): () => void {
  const { getNodes, getNodesBounds, setViewport } = useReactFlow();
  const store = useStoreApi();
  return useCallback(() => {
    const fitNow = () => {
      const { domNode, width, height, minZoom } = store.getState();
      const box = domNode?.getBoundingClientRect();
      const overlays = [...(domNode?.querySelectorAll('.react-flow__panel') ?? [])]
        .map((el) => el.getBoundingClientRect())
        .filter((r) => r.width > 0 && r.height > 0)
        .map((r) => ({ x: r.left - (box?.left ?? 0), y: r.top - (box?.top ?? 0), width: r.width, height: r.height }));
      const bounds = getNodesBounds(getNodes());
      const p = fitPadding({ width, height }, bounds, overlays);
      const padding = { top: `${p.top}px`, right: `${p.right}px`, bottom: `${p.bottom}px`, left: `${p.left}px` } as const;
      void setViewport(getViewportForBounds(bounds, width, height, minZoom, FIT_MAX_ZOOM, padding));
    };
    if (measured(store.getState().nodeLookup)) return fitNow();
    const stop = store.subscribe((s) => {
      if (!measured(s.nodeLookup)) return;
      stop();
      fitNow();
    });
  }, [getNodes, getNodesBounds, setViewport, store]);
}

type Viewport = { x: number; y: number; zoom: number };
/** Room kept between a revealed node and the canvas's edge. */
const REVEAL_MARGIN = 48;

/**
 * The viewport panned the least (zoom kept) for `rect`, in flow units, to lie inside the canvas with
 * `margin` px to spare; null when it does already. A rect larger than the canvas keeps its top-left
 * corner in view.
 */
export function panToReveal(rect: Rect, viewport: Viewport, canvas: { width: number; height: number }, margin = REVEAL_MARGIN): Viewport | null {
  const shift = (start: number, size: number, room: number) => {
    const from = start * viewport.zoom;
    const to = (start + size) * viewport.zoom;
    let d = 0;
    if (to > room - margin) d = room - margin - to;
    if (from + d < margin) d = margin - from;
    return d;
  };
  const dx = shift(rect.x + viewport.x / viewport.zoom, rect.width, canvas.width);
  const dy = shift(rect.y + viewport.y / viewport.zoom, rect.height, canvas.height);
  return dx === 0 && dy === 0 ? null : { x: viewport.x + dx, y: viewport.y + dy, zoom: viewport.zoom };
}

/**
 * Pans the canvas to a node just added (spec/03 places it right of the last one, often past the
 * canvas's edge) once React Flow has measured it, so the person who added it sees it and can connect it.
 */
export function useRevealNode(): (id: string) => void {
  const { getViewport, setViewport } = useReactFlow();
  const store = useStoreApi();
  return useCallback(
    (id: string) => {
      const reveal = () => {
        const node = store.getState().nodeLookup.get(id);
        const { width, height } = node?.measured ?? {};
        if (!node || width === undefined || height === undefined) return false;
        const { x, y } = node.internals.positionAbsolute;
        const next = panToReveal({ x, y, width, height }, getViewport(), store.getState());
        if (next) void setViewport(next, { duration: 200 });
        return true;
      };
      if (reveal()) return;
      // React Flow takes the node on its next render and measures it on the one after; a node gone
      // before then (undone at once) is not waited for.
      const stop = store.subscribe(() => {
        if (reveal()) done();
      });
      const timer = setTimeout(stop, 2000);
      const done = () => {
        clearTimeout(timer);
        stop();
      };
    },
    [getViewport, setViewport, store],
  );
}
