// The document covers every route the app registers, is a valid OpenAPI 3.1 document, and is served
// with its reference page (assets from npm, nothing from elsewhere).
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { ROUTE_DOCS } from './registry.ts';

const normalize = (path: string) => (path.length > 1 ? path.replace(/\/$/, '') : path);

describe.each(DIALECTS)('OpenAPI document on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    // The simulator's controls are registered too, so they are checked as well.
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  it('documents every route the app registers, and no route it does not', async () => {
    const registered = new Set(t.app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${normalize(r.path)}`));
    const documented = new Set(ROUTE_DOCS.flatMap((a) => Object.keys(a.routes)));
    expect([...registered].filter((k) => !documented.has(k as never)), 'routes without a document').toEqual([]);
    expect([...documented].filter((k) => !registered.has(k)), 'documents of no route').toEqual([]);
  });

  it('serves a valid OpenAPI 3.1 document at /openapi.json', async () => {
    const res = await t.request('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const result = await new Validator().validate(res.body);
    expect(result.errors ?? [], JSON.stringify(result.errors)?.slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(Object.keys(res.body.components.securitySchemes).sort()).toEqual(['bearer', 'connectionToken', 'refreshCookie', 'webhookSignature']);
    const send = res.body.paths['/api/messages/send'].post;
    expect(send.security).toEqual([{ connectionToken: [] }]);
    expect(Object.keys(send.requestBody.content).sort()).toEqual(['application/json', 'multipart/form-data']);
    expect(send.responses['400'].content['application/json'].schema.allOf[1].properties.error.enum).toContain('ERR_WAPP_INVALID_CONTACT');
    expect(send.responses['200'].content['application/json'].schema.required).toEqual(['message', 'ticketId', 'contactId', 'messageIds']);
  });

  it('serves the reference page and its assets from this server only', async () => {
    const page = await t.app.request('/docs');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('swagger-ui');
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(2);
    expect(refs.filter((r) => /^(https?:)?\/\//.test(r))).toEqual([]);
    for (const ref of refs) {
      const asset = await t.app.request(`/${ref}`);
      expect(asset.status, ref).toBe(200);
      expect((await asset.arrayBuffer()).byteLength, ref).toBeGreaterThan(100);
    }
    expect((await t.app.request('/docs/package.json')).status).toBe(404);
    expect((await t.app.request('/docs/..%2Fpackage.json')).status).toBe(404);
  });
});
