import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';

export function companiesRoutes(_deps: AppDeps) {
  return new Hono<AppEnv>();
}
