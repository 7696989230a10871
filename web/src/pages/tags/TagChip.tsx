// A tag as a coloured chip; the text is dark or light by the colour's brightness so it stays legible.
export function readableOn(hex: string): string {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})/i.exec(hex)?.[1];
  if (!m) return '#0f172a';
  const full = m.length === 3 ? [...m].map((c) => c + c).join('') : m;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16));
  return 0.299 * r! + 0.587 * g! + 0.114 * b! > 150 ? '#0f172a' : '#ffffff';
}

export function TagChip({ name, color }: { name: string; color: string }) {
  return (
    <span className="inline-flex max-w-full items-center truncate rounded-full px-2.5 py-0.5 text-xs font-semibold" style={{ backgroundColor: color, color: readableOn(color) }}>
      {name}
    </span>
  );
}
