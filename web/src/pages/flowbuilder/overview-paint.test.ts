// The overview canvas's pure parts: which nodes it draws, its marks' precedence, its extent and
// resolution, and the text cut to fit as CSS `truncate` cuts it.
import { describe, expect, it } from 'vitest';
import { borderWidthOf, canvasScale, drawnOnCanvas, edgeEnd, edgeHull, edgeOnCanvas, extentOf, OVERVIEW_BLEED, ringOf, truncate, zoomStep, type OverviewMarks } from './overview-paint.ts';

const marks = (m: Partial<OverviewMarks>): OverviewMarks => ({ errors: [], warnings: [], highlighted: false, dimmed: false, running: false, ...m });
const note = { message: 'x', key: null, params: {} };

describe('overview paint', () => {
  it('draws on the canvas only the nodes nobody is selecting or dragging', () => {
    expect(drawnOnCanvas({})).toBe(true);
    expect(drawnOnCanvas({ selected: false, dragging: false })).toBe(true);
    expect(drawnOnCanvas({ selected: true })).toBe(false);
    expect(drawnOnCanvas({ dragging: true })).toBe(false);
  });

  it('leaves to React Flow a selected edge and the edges of a selected or dragged node', () => {
    const live = new Set(['b']);
    expect(edgeOnCanvas({ source: 'a', target: 'c' }, live)).toBe(true);
    expect(edgeOnCanvas({ source: 'a', target: 'c', selected: true }, live)).toBe(false);
    expect(edgeOnCanvas({ source: 'b', target: 'c' }, live)).toBe(false);
    expect(edgeOnCanvas({ source: 'a', target: 'b' }, live)).toBe(false);
  });

  it('ends an edge where React Flow does: the outer side of an output, the inner side of an input, at mid-height', () => {
    const handle = { x: 234, y: 42, width: 12, height: 12 };
    expect(edgeEnd({ x: 100, y: 50 }, handle, 'source')).toEqual({ x: 346, y: 98 });
    expect(edgeEnd({ x: 100, y: 50 }, handle, 'target')).toEqual({ x: 334, y: 98 });
  });

  it('bounds an edge with its control points, which reach back past both ends when it runs right to left', () => {
    expect(edgeHull({ x: 0, y: 0 }, { x: 100, y: 50 })).toEqual({ x: 0, y: 0, width: 100, height: 50 });
    const back = edgeHull({ x: 1000, y: 0 }, { x: 0, y: 260 });
    // 0.25 × 25 × √1000 ≈ 198 past each end.
    expect(back.x).toBeCloseTo(-197.6, 0);
    expect(back.width).toBeCloseTo(1000 + 2 * 197.6, 0);
    expect(back.height).toBe(260);
  });

  it('rings a node for an error before the highlight, and the highlight before a warning', () => {
    expect(ringOf(marks({}))).toBe(null);
    expect(ringOf(marks({ warnings: [note] }))).toBe('warning');
    expect(ringOf(marks({ warnings: [note], highlighted: true }))).toBe('highlight');
    expect(ringOf(marks({ warnings: [note], highlighted: true, errors: [note] }))).toBe('danger');
    expect([borderWidthOf(null), borderWidthOf('warning')]).toEqual([2, 8]);
  });

  it('spans every node with room for outlines and handles', () => {
    expect(extentOf([])).toBe(null);
    expect(extentOf([{ x: 0, y: 0, width: 240, height: 96 }, { x: 300, y: -260, width: 240, height: 96 }])).toEqual({
      x: -OVERVIEW_BLEED,
      y: -260 - OVERVIEW_BLEED,
      width: 540 + 2 * OVERVIEW_BLEED,
      height: 356 + 2 * OVERVIEW_BLEED,
    });
  });

  it('draws for the zoom rounded up to a 2^¼ step, within a pixel budget', () => {
    expect(zoomStep(0.25)).toBe(0.25);
    expect(zoomStep(0.2)).toBeCloseTo(2 ** -2.25);
    expect(zoomStep(0.2)).toBeGreaterThanOrEqual(0.2);
    expect(zoomStep(0.17)).toBe(zoomStep(0.171));
    const small = { x: 0, y: 0, width: 6000, height: 4000 };
    expect(canvasScale(zoomStep(0.17), 1, small)).toBe(zoomStep(0.17));
    expect(canvasScale(zoomStep(0.17), 2, small)).toBe(2 * zoomStep(0.17));
    const huge = { x: 0, y: 0, width: 60_000, height: 40_000 };
    const s = canvasScale(zoomStep(0.39), 1, huge, 8_000_000);
    expect(huge.width * s * huge.height * s).toBeLessThanOrEqual(8_000_001);
  });

  it('cuts a name with an ellipsis to fit, as CSS truncate does', () => {
    const measure = (s: string) => s.length * 10;
    expect(truncate('Message', 100, measure)).toBe('Message');
    expect(truncate('Flow start', 60, measure)).toBe('Flow…');
    expect(truncate('Flow start', 5, measure)).toBe('…');
  });
});
