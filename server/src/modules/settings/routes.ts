import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';

export function settingsRoutes(_deps: AppDeps) {
  return new Hono<AppEnv>();
}
