// The overview canvas's pure parts: which nodes it draws, its marks' precedence, its extent and
// resolution, and the text cut to fit as CSS `truncate` cuts it.
import { describe, expect, it } from 'vitest';
import { borderWidthOf, canvasScale, drawnOnCanvas, extentOf, OVERVIEW_BLEED, ringOf, truncate, zoomStep, type OverviewMarks } from './overview-paint.ts';

const marks = (m: Partial<OverviewMarks>): OverviewMarks => ({ errors: [], warnings: [], highlighted: false, dimmed: false, running: false, ...m });
const note = { message: 'x', key: null, params: {} };

describe('overview paint', () => {
  it('draws on the canvas only the nodes nobody is selecting or dragging', () => {
    expect(drawnOnCanvas({})).toBe(true);
    expect(drawnOnCanvas({ selected: false, dragging: false })).toBe(true);
    expect(drawnOnCanvas({ selected: true })).toBe(false);
    expect(drawnOnCanvas({ dragging: true })).toBe(false);
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
