// i18next for the web app (spec/01 §1): en, pt, es; default en, fallback pt; the choice is kept in
// local storage under i18nextLng. Error codes are worded by the shared catalogue (translateError).
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, FALLBACK_LANGUAGE, isLanguage, type Language } from '@zapdesk/sync';
import { readStored, writeStored } from '../session/storage.ts';
import { en } from './locales/en.ts';
import { es } from './locales/es.ts';
import { pt } from './locales/pt.ts';
import { onStrings } from './strings.ts';

export const resources = { en: { translation: en }, pt: { translation: pt }, es: { translation: es } } as const;

export function storedLanguage(): Language {
  const stored = readStored('language');
  // i18next-browser-languagedetector used to store regional tags such as "pt-BR".
  const base = stored?.slice(0, 2);
  return isLanguage(base) ? base : DEFAULT_LANGUAGE;
}

void i18next.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: FALLBACK_LANGUAGE,
  supportedLngs: ['en', 'pt', 'es'],
  interpolation: { escapeValue: false },
  returnNull: false,
});

// Page strings (strings.ts beside each page) join the same `translation` namespace as they load.
onStrings((namespace, strings) => {
  for (const [lng, tree] of Object.entries(strings)) i18next.addResourceBundle(lng, 'translation', { [namespace]: tree }, true, true);
});

i18next.on('languageChanged', (lng) => {
  writeStored('language', lng);
  document.documentElement.lang = lng;
});
document.documentElement.lang = i18next.language;

export function currentLanguage(): Language {
  const lng = i18next.resolvedLanguage ?? i18next.language;
  return isLanguage(lng) ? lng : DEFAULT_LANGUAGE;
}

export { i18next };
