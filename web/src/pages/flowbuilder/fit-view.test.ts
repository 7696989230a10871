// The fitted view's padding: the flow clears the canvas's overlays (minimap bottom-right, controls
// bottom-left, floating menu top-left) from whichever side costs it the least zoom.
import { describe, expect, it } from 'vitest';
import { fitPadding, panToReveal } from './fit-view.ts';

const canvas = { width: 1200, height: 800 };
// As React Flow lays them out in the editor: 15 px in from the edges.
const minimap = { x: 1200 - 15 - 200, y: 800 - 15 - 150, width: 200, height: 150 };
const controls = { x: 15, y: 800 - 15 - 82, width: 26, height: 82 };
const palette = { x: 15, y: 15, width: 120, height: 36 };
const base = { top: 52, right: 78, bottom: 52, left: 78 };

describe('fitPadding', () => {
  it('pads every side alike when nothing floats on the canvas', () => {
    expect(fitPadding(canvas, { width: 3000, height: 2000 }, [])).toEqual(base);
  });

  it('keeps a wide flow above the minimap, where its height leaves room', () => {
    const p = fitPadding(canvas, { width: 6000, height: 1000 }, [minimap]);
    expect(p).toEqual({ ...base, bottom: 800 - minimap.y + 12 });
  });

  it('keeps a tall flow left of the minimap, where its width leaves room', () => {
    const p = fitPadding(canvas, { width: 1000, height: 6000 }, [minimap]);
    expect(p).toEqual({ ...base, right: 1200 - minimap.x + 12 });
  });

  it('clears the controls and the floating menu too, each from its cheaper side', () => {
    // A wide flow: below the menu (not beside it), beside the controls (inside the margin already), above the minimap.
    const p = fitPadding(canvas, { width: 6000, height: 1000 }, [minimap, controls, palette]);
    expect(p).toEqual({ top: 15 + 36 + 12, right: base.right, bottom: 800 - minimap.y + 12, left: base.left });
  });

  it('ignores what floats away from the edges', () => {
    expect(fitPadding(canvas, { width: 3000, height: 2000 }, [{ x: 500, y: 300, width: 100, height: 100 }])).toEqual(base);
  });
});

describe('panToReveal', () => {
  const canvas = { width: 1000, height: 600 };
  it('leaves the view alone when the node is in it', () => {
    expect(panToReveal({ x: 100, y: 100, width: 240, height: 120 }, { x: 0, y: 0, zoom: 1 }, canvas)).toBeNull();
  });
  it('pans left just enough for a node past the right edge, keeping the zoom', () => {
    // At zoom 0.5 the node spans 1100..1220 px on screen: 268 px past the room (1000 - 48).
    expect(panToReveal({ x: 2000, y: 100, width: 240, height: 120 }, { x: 100, y: 0, zoom: 0.5 }, canvas)).toEqual({ x: 100 - 268, y: 0, zoom: 0.5 });
  });
  it('pans down for a node above the top edge, and keeps the top-left of a node larger than the canvas', () => {
    expect(panToReveal({ x: 100, y: -300, width: 240, height: 120 }, { x: 0, y: 0, zoom: 1 }, canvas)).toEqual({ x: 0, y: 348, zoom: 1 });
    expect(panToReveal({ x: 0, y: 100, width: 2000, height: 100 }, { x: -500, y: 0, zoom: 1 }, canvas)).toEqual({ x: 48, y: 0, zoom: 1 });
  });
});
