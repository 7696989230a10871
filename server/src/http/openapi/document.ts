// Turns the route documents (registry.ts) into one OpenAPI 3.1 document. Every schema in it is
// converted from the zod schema the handler parses, so the document says what the code checks.
import { ERROR_STATUS, PLAN_FEATURES, type ErrorCode } from '@zapdesk/sync';
import { z } from 'zod';
import { INPUT_NAMES, isNamed, OUTPUT_NAMES } from './components.ts';
import { LIVE_CHANNELS_MARKDOWN, LIVE_RECORDS, liveMessageOf, paymentLiveMessage, WEBHOOK_DATA, WEBHOOK_HEADERS, webhookPayloadOf } from './events.ts';
import { ROUTE_DOCS } from './registry.ts';
import { isRawAnswer, type AuthScheme, type Method, type RouteDoc } from './types.ts';

type Json = Record<string, unknown>;

const SECURITY_SCHEMES: Record<AuthScheme, Json> = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'A user\'s access token, as POST /auth/login and POST /auth/refresh_token answer it ("token"). It lives minutes: on 403 ERR_TOKEN_EXPIRED refresh it once.',
  },
  refreshCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'jrt',
    description: 'The httpOnly refresh cookie set by POST /auth/login; each use rotates it.',
  },
  connectionToken: {
    type: 'http',
    scheme: 'bearer',
    description: "A connection's token (Connections → edit → token), sent as `Authorization: Bearer <token>`: it sends through that connection and nothing else.",
  },
  webhookSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'x-zapdesk-signature',
    description: "The payment provider's HMAC-SHA256 of the exact body, keyed with PAYMENT_WEBHOOK_SECRET.",
  },
};

const ID_PARAM: Json = { type: 'integer', minimum: 1, maximum: 2_147_483_647 };

/** Every failure's body, once; each response narrows `error` to the codes it may carry. */
const ERROR_BODY: Json = {
  type: 'object',
  required: ['error', 'message'],
  properties: {
    error: { type: 'string', description: 'The catalogue code (sync/src/errors.ts)' },
    message: { type: 'string', description: "A readable message in English (clients word the code in the user's language)" },
    issues: { type: 'array', description: 'The fields a validation error found wrong', items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string' }, message: { type: 'string' } } } },
    reason: {
      type: 'string',
      description: 'ERR_SESSION_EXPIRED of a session ended on purpose: why: `replaced` by a login of the same account elsewhere, otherwise `logout`, `password-changed`, `password-reset`, `user-deleted`, `company-deleted` or `refresh-reuse`',
    },
  },
  description: 'Every failure: a catalogue code, a readable message, the field issues of a validation error and, for some codes, details such as retryAfter or feature.',
};

const errorBody = (codes: ErrorCode[]): Json => ({ allOf: [{ $ref: '#/components/schemas/Error' }, { type: 'object', properties: { error: { enum: codes } } }] });

/**
 * Hoists a converted schema's $defs into components (a `#/$defs` reference would point at the
 * document's root): the named wire schemas (components.ts) once under their names, any other shared
 * part under the operation's prefix.
 */
function hoist(schema: Json, prefix: string, components: Record<string, Json>): Json {
  const defs = schema.$defs as Record<string, Json> | undefined;
  const { $schema: _dialect, $defs: _defs, ...rest } = schema;
  if (!defs) return rest;
  const rename = (name: string) => (isNamed(name) ? name : `${prefix}_${name}`);
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/') ? `#/components/schemas/${rename(v.slice(8))}` : rewrite(v)]),
    );
  };
  for (const [name, def] of Object.entries(defs)) components[rename(name)] = rewrite(def) as Json;
  return rewrite(rest) as Json;
}

/** zod writes every `.int()` as bounded by ±2^53−1: true, but noise in the reference (its examples showed it). */
function dropSafeIntBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(dropSafeIntBounds);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k, v]) => !((k === 'minimum' || k === 'maximum') && Math.abs(v as number) === Number.MAX_SAFE_INTEGER))
      .map(([k, v]) => [k, dropSafeIntBounds(v)]),
  );
}

const toSchema = (schema: z.ZodType, io: 'input' | 'output', prefix: string, components: Record<string, Json>) =>
  dropSafeIntBounds(hoist(z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any', metadata: io === 'output' ? OUTPUT_NAMES : INPUT_NAMES }) as Json, prefix, components)) as Json;

/** `/tags/:id` as OpenAPI writes it: `/tags/{id}`. */
export const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

const operationId = (method: Method, path: string) =>
  method.toLowerCase() + path.replace(/:(\w+)/g, 'By-$1').split(/[^a-zA-Z0-9]+/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');

/** The codes a route may answer: those its auth, parameters and body imply, then its own. */
export function routeErrors(path: string, doc: RouteDoc): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  if (doc.auth.includes('bearer')) ['ERR_SESSION_EXPIRED', 'ERR_TOKEN_EXPIRED'].forEach((c) => codes.add(c as ErrorCode));
  if (doc.auth.includes('connectionToken')) ['ERR_SESSION_EXPIRED', 'ERR_COMPANY_INACTIVE'].forEach((c) => codes.add(c as ErrorCode));
  if (doc.auth.includes('refreshCookie')) codes.add('ERR_SESSION_EXPIRED');
  if (doc.auth.includes('webhookSignature')) codes.add('ERR_INVALID_SIGNATURE');
  if (doc.guarded || doc.plan) codes.add('ERR_NO_PERMISSION');
  for (const name of path.matchAll(/:(\w+)/g)) {
    const param = doc.params?.[name[1]!];
    if (param === undefined) codes.add('ERR_NOT_FOUND');
    else if (typeof param === 'string') codes.add(param);
  }
  if (doc.query) codes.add('ERR_VALIDATION');
  if (doc.body) ['ERR_VALIDATION', 'ERR_INVALID_JSON', 'ERR_UNSUPPORTED_MEDIA_TYPE', 'ERR_PAYLOAD_TOO_LARGE'].forEach((c) => codes.add(c as ErrorCode));
  if (doc.multipart) ['ERR_VALIDATION', 'ERR_UNSUPPORTED_MEDIA_TYPE', 'ERR_PAYLOAD_TOO_LARGE'].forEach((c) => codes.add(c as ErrorCode));
  for (const code of doc.errors ?? []) codes.add(code);
  codes.add('ERR_INTERNAL_SERVER_ERROR');
  return [...codes];
}

function parameters(path: string, doc: RouteDoc, prefix: string, components: Record<string, Json>): Json[] {
  const out: Json[] = [];
  for (const [, name] of path.matchAll(/:(\w+)/g)) {
    const param = doc.params?.[name!];
    const schema = param === undefined || typeof param === 'string' ? ID_PARAM : toSchema(param, 'input', prefix, components);
    out.push({ name, in: 'path', required: true, schema });
  }
  if (doc.query) {
    const query = toSchema(doc.query, 'input', prefix, components);
    const required = new Set((query.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((query.properties as Record<string, Json> | undefined) ?? {})) {
      out.push({ name, in: 'query', required: required.has(name), schema, ...(schema.description ? { description: schema.description } : {}) });
    }
  }
  return out;
}

function requestBody(doc: RouteDoc, prefix: string, components: Record<string, Json>): Json | undefined {
  const content: Json = {};
  if (doc.body) content['application/json'] = { schema: toSchema(doc.body, 'input', prefix, components) };
  if (doc.multipart) {
    const { file, many, fields, description } = doc.multipart;
    const base = fields ? toSchema(fields, 'input', prefix, components) : { type: 'object', properties: {} };
    const binary = { type: 'string', contentMediaType: 'application/octet-stream' };
    content['multipart/form-data'] = {
      schema: { ...base, properties: { ...(base.properties as Json), [file]: many ? { type: 'array', items: binary } : binary }, ...(description ? { description } : {}) },
    };
  }
  return Object.keys(content).length ? { required: !!doc.multipart && !doc.body, content } : undefined;
}

function responses(path: string, doc: RouteDoc, prefix: string, components: Record<string, Json>): Json {
  const out: Json = {};
  const status = String(doc.status ?? 200);
  if (isRawAnswer(doc.answer)) out[status] = { description: doc.answer.description, content: { [doc.answer.contentType]: {} } };
  else if (doc.answer) out[status] = { description: 'Success', content: { 'application/json': { schema: toSchema(doc.answer, 'output', prefix, components) } } };
  else out[status] = { description: 'Success (the shape of this answer is not described yet)', 'x-undescribed-answer': true, content: { 'application/json': { schema: { type: 'object' } } } };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of routeErrors(path, doc)) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  for (const [code, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(code)] = { description: codes.join(', '), content: { 'application/json': { schema: errorBody(codes) } } };
  }
  return out;
}

/** The whole document; `serverUrl` is where the caller reached the API. */
export function buildOpenApiDocument(serverUrl?: string): Json {
  const paths: Record<string, Json> = {};
  const components: Record<string, Json> = {};
  for (const area of ROUTE_DOCS) {
    for (const [key, doc] of Object.entries(area.routes)) {
      if (!doc) continue;
      const [method, path] = key.split(' ') as [Method, string];
      const id = operationId(method, path);
      const planNote = doc.plan ? `\n\nNeeds the plan feature \`${PLAN_FEATURES[doc.plan]}\`.` : '';
      const body = requestBody(doc, id, components);
      (paths[toOpenApiPath(path)] ??= {})[method.toLowerCase()] = {
        tags: [area.tag],
        operationId: id,
        summary: doc.summary ?? `${method} ${path}`,
        ...(doc.description || planNote ? { description: `${doc.description ?? ''}${planNote}`.trim() } : {}),
        security: doc.auth.length ? doc.auth.map((scheme) => ({ [scheme]: [] })) : [],
        parameters: parameters(path, doc, id, components),
        ...(body ? { requestBody: body } : {}),
        responses: responses(path, doc, id, components),
      };
    }
  }
  // What the API sends unasked (events.ts): the webhooks' deliveries and the live channels' messages.
  const webhooks: Record<string, Json> = {};
  for (const [event, { summary, data }] of Object.entries(WEBHOOK_DATA)) {
    webhooks[event] = {
      post: {
        summary,
        operationId: `webhook_${event.replace(/\W/g, '_')}`,
        parameters: WEBHOOK_HEADERS.map((h) => ({ name: h.name, in: 'header', required: true, description: h.description, schema: { type: 'string' } })),
        requestBody: { required: true, content: { 'application/json': { schema: toSchema(webhookPayloadOf(event, data), 'output', `webhook_${event.replace(/\W/g, '_')}`, components) } } },
        responses: { '200': { description: 'Any 2xx: delivered. Anything else (or no answer within 10 s): retried with backoff, with the same event id.' } },
      },
    };
  }
  const live: Record<string, Json> = {};
  for (const [entity, { schema, what }] of Object.entries(LIVE_RECORDS)) {
    live[entity] = { channel: `company-{companyId}-${entity}`, description: what, data: toSchema(liveMessageOf(entity, schema), 'output', `live_${entity}`, components) };
  }
  live.payment = { channel: 'company-{companyId}-payment', description: 'an invoice paid', data: toSchema(paymentLiveMessage, 'output', 'live_payment', components) };
  return {
    openapi: '3.1.0',
    info: {
      title: 'zapdesk API',
      version: '1.0.0',
      description:
        'The HTTP API of zapdesk: customer service over WhatsApp for many companies. Generated from the zod schemas that validate each request. Every failure answers `{ error, message }` with a catalogue code.' +
        LIVE_CHANNELS_MARKDOWN,
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    tags: ROUTE_DOCS.map((a) => ({ name: a.tag, description: a.description })),
    paths,
    webhooks,
    'x-zapdesk-live-channels': live,
    components: { securitySchemes: SECURITY_SCHEMES, schemas: dropSafeIntBounds({ Error: ERROR_BODY, ...components }) },
  };
}
