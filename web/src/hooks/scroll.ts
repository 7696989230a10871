// spec/02 §9: searches are debounced 500 ms; tables load more within 100 px of the bottom.
export const SEARCH_DEBOUNCE_MS = 500;
export const LOAD_MORE_THRESHOLD_PX = 100;

/** Whether a scroll position is close enough to the bottom to load the next page. */
export function nearBottom(el: { scrollTop: number; scrollHeight: number; clientHeight: number }): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight < LOAD_MORE_THRESHOLD_PX;
}
