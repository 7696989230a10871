// A small SVG bar chart (no charting library: the dashboard needs two plain bar charts). The
// chart is an image with a text summary; each bar carries its value as a tooltip and a label.
import { useEffect, useId, useRef, useState } from 'react';
import { scaleBars, type Bar } from './dashboard-format.ts';

const H = 180;
const PAD = { top: 14, right: 8, bottom: 34, left: 32 };

type Props = { title: string; bars: Bar[]; summary: string; empty: string; color?: string };

export function BarChart({ title, bars, summary, empty, color = 'var(--color-brand)' }: Props) {
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const [boxWidth, setBoxWidth] = useState(0);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setBoxWidth(Math.floor(entry?.contentRect.width ?? 0)));
    observer.observe(el);
    return () => observer.disconnect();
  }, [bars.length > 0]);
  const { top, ratio } = scaleBars(bars);
  // Bars share the width; below 14 px each the chart scrolls sideways instead of squeezing.
  const slot = Math.max(14, Math.min(64, (boxWidth - PAD.left - PAD.right) / Math.max(bars.length, 1)));
  const width = Math.max(boxWidth, PAD.left + PAD.right + bars.length * slot);
  const plotH = H - PAD.top - PAD.bottom;
  const ticks = top >= 4 && top % 2 === 0 ? [0, top / 2, top] : [0, top];
  const gap = Math.min(8, slot / 5);
  // With many bars, only some labels fit under them.
  const labelEvery = Math.ceil(40 / slot);
  return (
    <figure className="min-w-0" aria-labelledby={`${id}-t`}>
      <figcaption id={`${id}-t`} className="mb-2 flex items-baseline justify-between gap-2">
        <span className="font-semibold">{title}</span>
        <span className="text-xs text-muted">{summary}</span>
      </figcaption>
      {bars.every((b) => b.value === 0) ? (
        <p className="py-10 text-center text-sm text-muted">{empty}</p>
      ) : (
        <div ref={box} className="overflow-x-auto">
          <svg role="img" aria-label={`${title}. ${summary}`} width={width} height={H} viewBox={`0 0 ${width} ${H}`} className="block">
            {ticks.map((tick) => {
              const y = PAD.top + plotH - (tick / top) * plotH;
              return (
                <g key={tick}>
                  <line x1={PAD.left} x2={width - PAD.right} y1={y} y2={y} className="stroke-line" strokeDasharray="3 3" />
                  <text x={PAD.left - 6} y={y + 4} textAnchor="end" className="fill-muted text-[10px]">
                    {tick}
                  </text>
                </g>
              );
            })}
            {bars.map((bar, i) => {
              const h = ratio(bar.value) * plotH;
              const x = PAD.left + i * slot + gap;
              return (
                <g key={`${bar.label}-${i}`}>
                  <rect x={x} y={PAD.top + plotH - h} width={slot - 2 * gap} height={Math.max(h, bar.value > 0 ? 2 : 0)} rx={3} fill={color}>
                    <title>{`${bar.label}: ${bar.value}`}</title>
                  </rect>
                  {bar.value > 0 && slot >= 18 && (
                    <text x={x + (slot - 2 * gap) / 2} y={PAD.top + plotH - h - 3} textAnchor="middle" className="fill-ink text-[10px] font-medium">
                      {bar.value}
                    </text>
                  )}
                  {i % labelEvery === 0 && (
                    <text x={x + (slot - 2 * gap) / 2} y={H - PAD.bottom + 14} textAnchor="middle" className="fill-muted text-[10px]">
                      {bar.label.length > 8 ? `${bar.label.slice(0, 7)}…` : bar.label}
                    </text>
                  )}
                </g>
              );
            })}
          </svg>
        </div>
      )}
    </figure>
  );
}
