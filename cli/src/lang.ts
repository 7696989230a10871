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

/** The CLI's own words where they stand in for a catalogue message (session.ts), in each language. */
const CLI_TEXT = {
  sessionEnded: {
    en: 'your session was ended on the server: this account logged in again elsewhere (one session at a time), or was logged out there. Run `zapdesk login` to log in again.',
    pt: 'sua sessão foi encerrada no servidor: esta conta entrou de novo em outro lugar (uma sessão por vez), ou saiu por lá. Rode `zapdesk login` para entrar de novo.',
    es: 'tu sesión fue cerrada en el servidor: esta cuenta inició sesión de nuevo en otro lugar (una sesión a la vez), o se cerró allí. Ejecuta `zapdesk login` para entrar de nuevo.',
  },
  tokenRefused: {
    en: 'the server refused the access token in ZAPDESK_TOKEN: it is not a token of this server, or its session was ended (logged out, or replaced by a newer login).',
    pt: 'o servidor recusou o token de acesso em ZAPDESK_TOKEN: não é um token deste servidor, ou a sessão dele foi encerrada (saída, ou substituída por um login mais novo).',
    es: 'el servidor rechazó el token de acceso de ZAPDESK_TOKEN: no es un token de este servidor, o su sesión fue cerrada (cierre de sesión, o reemplazada por un inicio de sesión más reciente).',
  },
  tokenExpired: {
    en: 'the access token in ZAPDESK_TOKEN has expired: give a fresh one, or use `zapdesk login`.',
    pt: 'o token de acesso em ZAPDESK_TOKEN expirou: use um novo, ou `zapdesk login`.',
    es: 'el token de acceso de ZAPDESK_TOKEN expiró: usa uno nuevo, o `zapdesk login`.',
  },
} as const;

export const cliText = (key: keyof typeof CLI_TEXT, lang: CliLanguage): string => CLI_TEXT[key][lang];
