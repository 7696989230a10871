// Pure parts of the overview's canvas (OverviewCanvas.tsx): how a node's marks look (shared with the
// DOM-drawn overview node, so both agree), which nodes the canvas draws, the canvas's extent and
// resolution, and the drawing of one node on a 2D context. Geometry mirrors OverviewNode's classes:
// a 240 × 96 block, 8 px radius, `px-4` and `gap-3` around a 40 px icon and 30 px semibold text.
import type { FlowNote } from './flow-graph.ts';

/** The save check's marks, the highlight and the test run, as the overview shows them. */
export type OverviewMarks = { errors: FlowNote[]; warnings: FlowNote[]; highlighted: boolean; dimmed: boolean; running: boolean };
/** The thick border a node gets, by precedence: an error, the highlight, a warning. */
export type OverviewRing = 'danger' | 'highlight' | 'warning' | null;

export function ringOf(m: OverviewMarks): OverviewRing {
  if (m.errors.length) return 'danger';
  if (m.highlighted) return 'highlight';
  if (m.warnings.length) return 'warning';
  return null;
}

/** Border width (px) with and without a ring: the handles sit on the padding box, so it moves them too. */
export const borderWidthOf = (ring: OverviewRing) => (ring ? 8 : 2);

/**
 * The canvas draws the nodes nobody is handling: a selected or dragged node stays a DOM node (React
 * Flow lifts a selected one above the canvas), so a drag repaints one small element, not the layer.
 */
export const drawnOnCanvas = (n: { selected?: boolean; dragging?: boolean }) => !n.selected && !n.dragging;

/**
 * The edges the canvas draws: those between two canvas-drawn nodes and not selected. The others (a
 * selected edge, with its delete button; the edges of a selected or dragged node, which move with it)
 * are React Flow's, which then renders a handful of edges instead of every one.
 */
export const edgeOnCanvas = (e: { source: string; target: string; selected?: boolean }, liveNodes: ReadonlySet<string>) =>
  !e.selected && !liveNodes.has(e.source) && !liveNodes.has(e.target);

export type Box = { x: number; y: number; width: number; height: number };
export type HandleBox = { id?: string | null; x: number; y: number; width: number; height: number };

/** Where an edge meets a handle, as React Flow computes it: the outer side of an output, the inner of an input. */
export function edgeEnd(node: { x: number; y: number }, handle: HandleBox, side: 'source' | 'target'): { x: number; y: number } {
  return { x: node.x + handle.x + (side === 'source' ? handle.width : 0), y: node.y + handle.y + handle.height / 2 };
}

/**
 * The box a bezier edge from an output (right side) to an input (left side) stays in: the hull of its
 * ends and control points, placed as React Flow's getBezierPath places them (curvature 0.25).
 */
export function edgeHull(a: { x: number; y: number }, b: { x: number; y: number }): Box {
  const d = b.x - a.x;
  const offset = d >= 0 ? 0.5 * d : 0.25 * 25 * Math.sqrt(-d);
  const xs = [a.x, b.x, a.x + offset, b.x - offset];
  const [x, y] = [Math.min(...xs), Math.min(a.y, b.y)];
  return { x, y, width: Math.max(...xs) - x, height: Math.max(a.y, b.y) - y };
}

/** Outlines and handles reach past a node's box: the test run's outline by 12 px, handles by 7. */
export const OVERVIEW_BLEED = 16;

/** The flow-space rectangle holding every box with its bleed, or null for none. */
export function extentOf(boxes: Box[]): Box | null {
  if (boxes.length === 0) return null;
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const b of boxes) {
    x0 = Math.min(x0, b.x);
    y0 = Math.min(y0, b.y);
    x1 = Math.max(x1, b.x + b.width);
    y1 = Math.max(y1, b.y + b.height);
  }
  return { x: x0 - OVERVIEW_BLEED, y: y0 - OVERVIEW_BLEED, width: x1 - x0 + 2 * OVERVIEW_BLEED, height: y1 - y0 + 2 * OVERVIEW_BLEED };
}

/**
 * The zoom the canvas is drawn for, rounded up to a step of 2^¼ (19 %): the canvas is drawn again
 * only when the zoom crosses a step, and never shown enlarged by more than the browser's own scaling.
 */
export const zoomStep = (zoom: number) => 2 ** (Math.ceil(Math.log2(Math.max(zoom, 1e-3)) * 4) / 4);

/** Canvas pixels per flow unit, kept under `maxPixels` in all (a huge flow draws a little softer). */
export function canvasScale(zoom: number, dpr: number, extent: Box, maxPixels = 8_000_000): number {
  const wanted = zoomStep(zoom) * dpr;
  const cap = Math.sqrt(maxPixels / Math.max(1, extent.width * extent.height));
  return Math.min(wanted, cap);
}

/** `text` cut to fit `maxWidth` with an ellipsis, as CSS `truncate` shows it. */
export function truncate(text: string, maxWidth: number, measure: (s: string) => number): string {
  if (measure(text) <= maxWidth) return text;
  const chars = [...text];
  let [lo, hi] = [0, chars.length];
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(`${chars.slice(0, mid).join('').trimEnd()}…`) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? '…' : `${chars.slice(0, lo).join('').trimEnd()}…`;
}

/** Resolved CSS colours the canvas paints with (the theme's and Tailwind's variables). */
export type OverviewPalette = { ring: Record<NonNullable<OverviewRing>, string>; running: string; surface: string; target: string; source: string; font: string };
export type HandleDot = { x: number; y: number; size: number; type: 'source' | 'target' };
/** A node as the canvas draws it: its box, its type's colour, icon and name, its marks and handles (node-relative). */
export type PaintedNode = Box & { color: string; label: string; icon: Path2D; marks: OverviewMarks; handles: HandleDot[] };

/** Draws one overview node in flow coordinates, as OverviewNode's DOM would show it. */
export function paintNode(ctx: CanvasRenderingContext2D, n: PaintedNode, palette: OverviewPalette): void {
  const { x, y, width: w, height: h, marks } = n;
  const ring = ringOf(marks);
  const bw = borderWidthOf(ring);
  ctx.globalAlpha = marks.dimmed ? 0.4 : 1;
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, 8);
  ctx.fillStyle = n.color;
  ctx.fill();
  if (ring) {
    // The border as a band between the outer rounded box and the padding box (its radius 8 - 8 = 0).
    ctx.beginPath();
    ctx.roundRect(x, y, w, h, 8);
    ctx.rect(x + bw, y + bw, w - 2 * bw, h - 2 * bw);
    ctx.fillStyle = palette.ring[ring];
    ctx.fill('evenodd');
  }
  if (marks.running) {
    // `outline-8 outline-offset-4`: a band 4 to 12 px outside the box, following its corners.
    ctx.beginPath();
    ctx.roundRect(x - 8, y - 8, w + 16, h + 16, 16);
    ctx.lineWidth = 8;
    ctx.strokeStyle = palette.running;
    ctx.stroke();
  }
  // The icon (40 px, the 24-unit stroke icon scaled) and the name, both white, centred vertically.
  const iconX = x + bw + 16;
  const iconY = y + h / 2 - 20;
  ctx.save();
  ctx.translate(iconX, iconY);
  ctx.scale(40 / 24, 40 / 24);
  ctx.lineWidth = 1.8;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.strokeStyle = '#ffffff';
  ctx.stroke(n.icon);
  ctx.restore();
  const textX = iconX + 40 + 12;
  ctx.font = `600 30px ${palette.font}`;
  ctx.textBaseline = 'middle';
  ctx.fillStyle = '#ffffff';
  ctx.fillText(truncate(n.label, x + w - bw - 16 - textX, (s) => ctx.measureText(s).width), textX, y + h / 2);
  for (const d of n.handles) {
    ctx.beginPath();
    ctx.arc(x + d.x + d.size / 2, y + d.y + d.size / 2, d.size / 2, 0, 2 * Math.PI);
    ctx.fillStyle = palette.surface;
    ctx.fill();
    ctx.beginPath();
    ctx.arc(x + d.x + d.size / 2, y + d.y + d.size / 2, d.size / 2 - 2, 0, 2 * Math.PI);
    ctx.fillStyle = d.type === 'target' ? palette.target : palette.source;
    ctx.fill();
  }
  ctx.globalAlpha = 1;
}
