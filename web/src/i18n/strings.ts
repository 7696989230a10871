// Page strings live beside their page, in a `strings.ts` that calls defineStrings(namespace, …):
// the texts load with the page's chunk (so /login stays small) and each page owns its own file.
// Keys are then used as t('<namespace>.<key>'); the translations test reads every strings.ts and
// checks them like the core locales (same keys in en, pt and es, placeholders kept).
import type { Language } from '@zapdesk/sync';

export type StringTree = { [key: string]: string | StringTree };
export type PageStrings = Record<Language, StringTree>;

type Listener = (namespace: string, strings: PageStrings) => void;

const defined = new Map<string, PageStrings>();
const listeners = new Set<Listener>();

/** Declares a page's texts under `namespace`; i18n/index.ts adds them to i18next as they load. */
export function defineStrings<S extends PageStrings>(namespace: string, strings: S): S {
  defined.set(namespace, strings);
  for (const listener of listeners) listener(namespace, strings);
  return strings;
}

/** Calls `listener` for every namespace defined so far and for each defined later. */
export function onStrings(listener: Listener): void {
  for (const [namespace, strings] of defined) listener(namespace, strings);
  listeners.add(listener);
}
