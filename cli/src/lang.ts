// Which language the CLI speaks: --lang, then the saved choice (login stores the user's profile
// language), then the machine's LANG. The saved choice beats LANG because LANG is a machine-wide
// default (often en_US or C) while the saved one was picked by this user.
import { translateError } from '@zapdesk/sync';
import type { Config, Env } from './config.ts';

export const CLI_LANGUAGES = ['en', 'pt', 'es'] as const;
export type CliLanguage = (typeof CLI_LANGUAGES)[number];

/** "pt_BR.UTF-8" → "pt"; anything the product does not speak → undefined. */
export function toLanguage(value: string | undefined): CliLanguage | undefined {
  const prefix = value?.trim().toLowerCase().slice(0, 2);
  return CLI_LANGUAGES.find((l) => l === prefix);
}

export function resolveLanguage(flag: string | undefined, config: Config, env: Env): CliLanguage {
  return toLanguage(flag) ?? toLanguage(config.language) ?? toLanguage(env.LC_ALL) ?? toLanguage(env.LANG) ?? 'en';
}

export function translate(code: string, lang: CliLanguage): string {
  return translateError(code, lang);
}
