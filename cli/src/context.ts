// What a command's run() gets besides its options: the streams, the language, the saved config and
// a way to the API. Built once per invocation by cli.ts.
import { readConfig, type Config } from './config.ts';
import { isInteractive, type Io } from './io.ts';
import { resolveLanguage, type CliLanguage } from './lang.ts';
import { loggedInApi, savedSessionApi, type Api } from './session.ts';

export type Ctx = {
  io: Io;
  lang: CliLanguage;
  config: Config;
  /** A person at a terminal: Ink views, prompts and live redraws. */
  interactive: boolean;
  api(): Api;
  /** The saved session's client even when it is empty (logout). */
  savedSessionApi(): Api;
};

export function createContext(io: Io, globals: { lang?: string }): Ctx {
  const config = readConfig(io.env);
  return {
    io,
    lang: resolveLanguage(globals.lang, config, io.env),
    config,
    interactive: isInteractive(io),
    api: () => loggedInApi(io.env, config),
    savedSessionApi: () => savedSessionApi(io.env, config),
  };
}
