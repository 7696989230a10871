// Every user-facing text goes through i18n: a key missing in a language, a placeholder dropped in
// translation, or a t('…') call naming a key no language defines fails here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLAN_FEATURES, PROFILES, RECURRENCES, SETTING_KEYS, SETTING_VALUES } from '@zapdesk/sync';
import { en } from './locales/en.ts';
import { es } from './locales/es.ts';
import { pt } from './locales/pt.ts';
import type { PageStrings } from './strings.ts';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

function sourceFilesNamed(dir: string, name: string): string[] {
  return sourceFiles(dir).filter((file) => path.basename(file) === name);
}

// Core texts plus every page's strings.ts (defineStrings(namespace, …)), as i18next ends up with them.
const srcDir = path.resolve(import.meta.dirname, '..');
const pageStrings = new Map<string, { file: string; strings: PageStrings }>();
const clashes: string[] = [];
for (const file of sourceFilesNamed(srcDir, 'strings.ts').filter((f) => !f.endsWith(path.join('i18n', 'strings.ts')))) {
  const { strings } = (await import(file)) as { strings?: PageStrings & { namespace?: never } };
  const namespace = path.basename(path.dirname(file));
  if (!strings) throw new Error(`${file} must export \`strings\` = defineStrings(…)`);
  if (namespace in en || pageStrings.has(namespace)) clashes.push(namespace);
  pageStrings.set(namespace, { file, strings });
}
const withPages = (core: Tree, lang: 'en' | 'pt' | 'es'): Tree => ({ ...core, ...Object.fromEntries([...pageStrings].map(([ns, { strings }]) => [ns, strings[lang]])) });
const languages = { en: flatten(withPages(en, 'en')), pt: flatten(withPages(pt, 'pt')), es: flatten(withPages(es, 'es')) };
const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('translations', () => {
  it('names each page namespace after its folder, once, apart from the core texts', () => {
    expect(clashes).toEqual([]);
    for (const [namespace, { file }] of pageStrings) {
      expect(readFileSync(file, 'utf8'), file).toContain(`defineStrings('${namespace}'`);
    }
  });

  for (const [lang, table] of Object.entries(languages)) {
    it(`${lang} has every key of the others, none empty`, () => {
      for (const other of Object.values(languages)) {
        const missing = [...other.keys()].filter((k) => !table.has(k));
        expect(missing, `missing in ${lang}`).toEqual([]);
      }
      const empty = [...table].filter(([, v]) => v.trim() === '').map(([k]) => k);
      expect(empty).toEqual([]);
    });

    it(`${lang} keeps every placeholder of en`, () => {
      const wrong = [...languages.en].filter(([k, v]) => table.has(k) && placeholders(table.get(k) ?? '').join() !== placeholders(v).join()).map(([k]) => k);
      expect(wrong).toEqual([]);
    });
  }

  it('defines every key the source code asks for', () => {
    const src = srcDir;
    const used = new Set<string>();
    for (const file of sourceFiles(src)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([a-zA-Z0-9_.]+)'/g)) used.add(m[1] as string);
      for (const m of readFileSync(file, 'utf8').matchAll(/\b(?:labelKey|i18nKey):\s*'([a-zA-Z0-9_.]+)'/g)) used.add(m[1] as string);
    }
    const known = (key: string) => languages.en.has(key) || languages.en.has(`${key}_one`);
    expect([...used].filter((k) => !known(k))).toEqual([]);
    expect(used.size).toBeGreaterThan(20);
  });

  it('words every value the screens build keys from (settings, profiles, recurrences, plan flags)', () => {
    const needed = [
      ...SETTING_KEYS.map((k) => `settings.keys.${k}`),
      ...Object.values(SETTING_VALUES).flat().map((v) => `settings.values.${v}`),
      ...PROFILES.map((p) => `users.profiles.${p}`),
      ...RECURRENCES.map((r) => `companies.recurrences.${r}`),
      ...Object.values(PLAN_FEATURES).map((f) => `plans.flags.${f}`),
      ...['en', 'pt', 'es'].map((l) => `language.${l}`),
    ];
    expect(needed.filter((k) => !languages.en.has(k))).toEqual([]);
  });
});
