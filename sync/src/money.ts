// Money as people read it (DESIGN §3; issue 17): stored and sent as integer cents, shown as
// Brazilian reais with 2 decimals, grouped by thousands in the reader's language. One rule for the
// web and the CLI, computed on integers so no float rounding slips into a price.

/**
 * Cents as reais: "R$ 1.234,56" in pt and es (pt-BR too), "R$ 1,234.56" in en (any other language
 * reads as en), a plain space after the symbol, "-R$ 10,50" below zero.
 */
export function formatCents(cents: number, language: string): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  const lang = language.slice(0, 2).toLowerCase();
  const [group, decimal] = lang === 'pt' || lang === 'es' ? ['.', ','] : [',', '.'];
  const whole = String(Math.trunc(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${sign}R$ ${whole}${decimal}${String(abs % 100).padStart(2, '0')}`;
}

/** Reais as the wire sends them (`value`, 2 decimals) back to cents. */
export const reaisToCents = (reais: number): number => Math.round(reais * 100);
