import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';

export function helpsRoutes(_deps: AppDeps) {
  return new Hono<AppEnv>();
}
