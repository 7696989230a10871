// Light or dark (spec/01 §2): from the saved preferredTheme, else the system preference; saved on change.
import { useCallback, useSyncExternalStore } from 'react';
import { readStored, writeStored } from '../session/storage.ts';

export type Theme = 'light' | 'dark';

export function initialTheme(stored: string | null, systemDark: boolean): Theme {
  if (stored === 'light' || stored === 'dark') return stored;
  return systemDark ? 'dark' : 'light';
}

const listeners = new Set<() => void>();
const systemDark = () => typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
let theme: Theme = initialTheme(readStored('theme'), systemDark());

function apply(next: Theme) {
  if (typeof document === 'undefined') return; // unit tests import the pure part in Node
  document.documentElement.classList.toggle('dark', next === 'dark');
}

export function setTheme(next: Theme): void {
  theme = next;
  writeStored('theme', next);
  apply(next);
  listeners.forEach((l) => l());
}

export function useTheme(): [Theme, () => void] {
  const current = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => theme,
  );
  const toggle = useCallback(() => setTheme(current === 'dark' ? 'light' : 'dark'), [current]);
  return [current, toggle];
}

apply(theme);
