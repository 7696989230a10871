import { useSyncExternalStore } from 'react';

/** Whether a media query matches now, updating on change. */
export function useMedia(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => matchMedia(query).matches,
  );
}

// spec/01 §9: the drawer is open by default above 1200 px and temporary below 600 px.
export const WIDE_QUERY = '(min-width: 1201px)';
export const PHONE_QUERY = '(max-width: 599.98px)';
