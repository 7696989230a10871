// The browser's local storage keys of spec/01 §3, in one place. Reads never throw: a browser with
// storage disabled behaves like a fresh one.

export const STORAGE_KEYS = {
  token: 'token',
  companyId: 'companyId',
  userId: 'userId',
  companyDueDate: 'companyDueDate',
  cshow: 'cshow',
  tasks: 'tasks',
  language: 'i18nextLng',
  theme: 'preferredTheme',
  volume: 'volume',
  signOption: 'signOption',
  variables: 'variables',
} as const;

export type StorageKey = keyof typeof STORAGE_KEYS;

export function readStored(key: StorageKey): string | null {
  try {
    return localStorage.getItem(STORAGE_KEYS[key]);
  } catch {
    return null;
  }
}

export function writeStored(key: StorageKey, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(STORAGE_KEYS[key]);
    else localStorage.setItem(STORAGE_KEYS[key], value);
  } catch {
    // Private mode or a full quota: the session still works for this page load.
  }
}

/** Values are stored as JSON strings, as the original app did (`"42"`, `"token…"`). */
export function readStoredJson<T>(key: StorageKey): T | null {
  const raw = readStored(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return raw as T;
  }
}

export function writeStoredJson(key: StorageKey, value: unknown): void {
  writeStored(key, value === null || value === undefined ? null : JSON.stringify(value));
}

/** The keys a logout removes: the session's, not the user's preferences (language, theme, volume, tasks). */
export function clearSessionStorage(): void {
  for (const key of ['token', 'companyId', 'userId', 'companyDueDate', 'cshow'] as const) writeStored(key, null);
}

/** "Accessed on another computer": the spec clears local storage entirely. */
export function clearAllStorage(): void {
  try {
    localStorage.clear();
  } catch {
    clearSessionStorage();
  }
}

// Why the app signed this tab out on its own ("accessed on another computer"), kept for the login
// page across the reload that follows (in the tab's session storage, which that clearing spares):
// the toast shown before the reload may never be seen, on a busy machine not even painted.
const SIGNED_OUT_KEY = 'signedOutBecause';

export function rememberSignOut(message: string): void {
  try {
    sessionStorage.setItem(SIGNED_OUT_KEY, message);
  } catch {
    // Storage disabled: the toast alone tells.
  }
}

/** The message of the last forced sign-out of this tab, if the login page has not shown it yet. */
export function signOutMessage(): string | null {
  try {
    return sessionStorage.getItem(SIGNED_OUT_KEY);
  } catch {
    return null;
  }
}

export function forgetSignOut(): void {
  try {
    sessionStorage.removeItem(SIGNED_OUT_KEY);
  } catch {
    // Nothing was kept.
  }
}
