// One folding of free text for every comparison the flow builder makes (menu answers, conditions,
// phrase campaigns): what a customer types on a phone varies in case, accents and spacing, and none
// of that should change where the conversation goes.

/** Lower case, accents dropped (NFD + combining marks removed), whitespace trimmed and collapsed. */
export function foldFlowText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The folded text's words: runs of letters and digits; punctuation and emoji separate them. */
export function foldFlowWords(text: string): string[] {
  return foldFlowText(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * A number as people type it: `10`, `-3.5`, `3,5` (decimal comma), `1.000,50` is NOT understood
 * (ambiguous); surrounding spaces allowed. Anything else is not a number.
 */
export function parseLooseNumber(text: string): number | null {
  const t = text.trim();
  if (!/^[-+]?(\d+([.,]\d+)?|[.,]\d+)$/.test(t)) return null;
  const n = Number(t.replace(',', '.'));
  return Number.isFinite(n) ? n : null;
}
