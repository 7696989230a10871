// Searching synced rows in the browser: case- and accent-insensitive "contains" over a few fields.
const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

export function matchesSearch(fields: (string | null | undefined)[], query: string): boolean {
  const q = fold(query.trim());
  if (q === '') return true;
  return fields.some((f) => f != null && fold(f).includes(q));
}
