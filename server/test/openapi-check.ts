// Keeps the OpenAPI document honest in every test that goes through the harness: each JSON answer
// is validated against the document's schema for its route and status, each error code must be one
// the route documents, and each body and query must be parsed with the schema the document names.
// What disagrees is collected and fails the test file at close() (harness.ts).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Context } from 'hono';
import type { z } from 'zod';
import { buildOpenApiDocument, routeErrors, toOpenApiPath } from '../src/http/openapi/document.ts';
import { ROUTE_DOCS } from '../src/http/openapi/registry.ts';
import { isRawAnswer, type RouteDoc } from '../src/http/openapi/types.ts';
import { parseWatch } from '../src/http/validate.ts';

type Route = { method: string; path: string; pattern: RegExp; params: number; doc: RouteDoc };

/**
 * Routes whose handler parses in steps the document cannot name one by one: the document names the
 * request a client sends, the handler reads part of it first.
 */
export const PARSED_IN_STEPS: Record<string, string> = {
  'POST /sync/pull': "the pull reads the body whole and checks it inside the sync service (Replicache's protocol)",
  'POST /sync/push': 'the push checks pushVersion first, then the documented request',
  'PUT /settings/:key': "each key has its own value schema; the document gives their union",
};

const ROUTES: Route[] = ROUTE_DOCS.flatMap((area) =>
  Object.entries(area.routes).map(([key, doc]) => {
    const [method, path] = key.split(' ') as [string, string];
    const source = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, '[^/]+');
    return { method, path, pattern: new RegExp(`^${source}/?$`), params: (path.match(/:/g) ?? []).length, doc: doc! };
  }),
).sort((a, b) => a.params - b.params);

/** The documented route a request reaches (fixed paths win over parameters, as the app orders them). */
export function findRoute(method: string, url: string): Route | undefined {
  const path = new URL(url, 'http://x').pathname;
  return ROUTES.find((r) => r.method === method && r.pattern.test(path));
}

const routeKey = (method: string, path: string) => `${method} ${path.length > 1 ? path.replace(/\/$/, '') : path}`;
const DOCS_BY_KEY = new Map(ROUTES.map((r) => [routeKey(r.method, r.path), r]));

let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();
const addFormats = addFormatsModule as unknown as (a: Ajv2020) => void;

function validatorFor(route: Route, status: number): ValidateFunction {
  return validatorAt(['paths', toOpenApiPath(route.path), route.method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema']);
}

function validatorAt(path: string[]): ValidateFunction {
  const pointer = path.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
  let validate = validators.get(pointer);
  if (!validate) {
    if (!ajv) {
      ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
      ajv.addSchema(buildOpenApiDocument(), 'openapi');
    }
    validate = ajv.compile({ $ref: `openapi#/${pointer}` });
    validators.set(pointer, validate);
  }
  return validate;
}

/** What is wrong with an answer as the document describes it, or undefined. */
export function answerProblem(method: string, url: string, status: number, body: unknown, contentType: string | null): string | undefined {
  const route = findRoute(method, url);
  if (!route) return undefined; // the app's 404 for unknown paths; the coverage test checks the routes
  const where = `${method} ${route.path} → ${status}`;
  if (status >= 400) {
    const code = (body as { error?: unknown } | undefined)?.error;
    if (typeof code !== 'string') return `${where}: an error without a catalogue code`;
    // Any route can be refused for its size or reached past the rate limit, and a route the app did
    // not register (the simulator's, when it is off) is the app's 404: none of them is the route's own.
    if (code === 'ERR_PAYLOAD_TOO_LARGE' || code === 'ERR_TOO_MANY_REQUESTS' || code === 'ERR_ROUTE_NOT_FOUND') return undefined;
    return routeErrors(route.path, route.doc).includes(code as never) ? undefined : `${where}: ${code} is not among the route's documented codes`;
  }
  const documented = route.doc.status ?? 200;
  if (status !== documented) return `${where}: the document says ${documented}`;
  if (!route.doc.answer || isRawAnswer(route.doc.answer)) return undefined;
  if (!/json/.test(contentType ?? '')) return `${where}: not JSON (${contentType})`;
  const validate = validatorFor(route, status);
  if (validate(body)) return undefined;
  const errors = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`);
  return `${where}: the answer does not match its documented schema: ${errors.join('; ')}`;
}

const describeErrors = (validate: ValidateFunction) =>
  (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`).join('; ');

/** What is wrong with a webhook delivery's body as the document's `webhooks` describe it, or undefined. */
export function webhookPayloadProblem(event: string, body: unknown): string | undefined {
  if (!(buildDocument().webhooks as Record<string, unknown>)[event]) return `webhook ${event}: not documented`;
  const validate = validatorAt(['webhooks', event, 'post', 'requestBody', 'content', 'application/json', 'schema']);
  return validate(body) ? undefined : `webhook ${event}: the payload does not match its documented schema: ${describeErrors(validate)}`;
}

/** What is wrong with a live channel's event `data` as `x-zapdesk-live-channels` describes it, or undefined. */
export function liveEventProblem(channel: string, data: unknown): string | undefined {
  const entity = /^company-\d+-([A-Za-z]+)/.exec(channel)?.[1];
  if (!entity || !(buildDocument()['x-zapdesk-live-channels'] as Record<string, unknown>)[entity]) return `live channel ${channel}: not documented`;
  const validate = validatorAt(['x-zapdesk-live-channels', entity, 'data']);
  return validate(data) ? undefined : `live channel ${channel}: the event does not match its documented schema: ${describeErrors(validate)}`;
}

let built: Record<string, unknown> | undefined;
const buildDocument = () => (built ??= buildOpenApiDocument());

/** Watches each parse: the schema must be the one the route's document names. */
export function watchParses(report: (problem: string) => void): () => void {
  reporters.add(report);
  parseWatch.listener ??= (c: Context, part: 'body' | 'query', schema: z.ZodType) => {
    const problem = parseProblem(c, part, schema);
    if (problem) for (const r of reporters) r(problem);
  };
  return () => {
    reporters.delete(report);
    if (reporters.size === 0) parseWatch.listener = undefined;
  };
}

const reporters = new Set<(problem: string) => void>();

function parseProblem(c: Context, part: 'body' | 'query', schema: z.ZodType): string | undefined {
  const key = routeKey(c.req.method, c.req.routePath);
  if (PARSED_IN_STEPS[key]) return undefined;
  const route = DOCS_BY_KEY.get(key);
  if (!route) return `${key}: parses a ${part} but has no document`;
  if (route.doc[part] !== schema) return `${key}: parses its ${part} with a schema its document does not name`;
  return undefined;
}
