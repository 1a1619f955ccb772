/**
 * Issue 13 items 3 and 6: a dashboard on another origin (CORS_ORIGINS), and /docs on any host
 * over plain HTTP (no upgrade-insecure-requests), switchable with DOCS_ENABLED.
 */
import request from 'supertest';
import { createTestApp, TestApp } from '../helpers/app';

const DASHBOARD = 'https://dashboard.example.com';
const LOCAL_DEV = 'http://localhost:5173';

function corsHeaders(headers: Record<string, string>): string[] {
  return Object.keys(headers).filter((name) => name.startsWith('access-control-'));
}

describe('CORS for listed origins', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { CORS_ORIGINS: `${DASHBOARD}, ${LOCAL_DEV}` } });
  });
  afterAll(() => t?.close());

  it('answers a preflight from a listed origin with the methods and headers a dashboard sends', async () => {
    for (const origin of [DASHBOARD, LOCAL_DEV]) {
      const res = await request(t.server)
        .options('/api/v1/defi/swap')
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'content-type,x-api-key,idempotency-key');
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(res.headers['access-control-allow-methods'].split(',')).toEqual(
        expect.arrayContaining(['GET', 'POST', 'DELETE']),
      );
      expect(res.headers['access-control-allow-headers'].split(',')).toEqual(
        expect.arrayContaining(['content-type', 'x-api-key', 'authorization', 'idempotency-key']),
      );
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(res.headers.vary).toMatch(/Origin/i);
    }
  });

  it('exposes the rate-limit, Retry-After and request-id headers on actual responses', async () => {
    const res = await request(t.server).get('/api/v1/usage/stats').set('Origin', DASHBOARD);
    expect(res.status).toBe(401);
    expect(res.headers['access-control-allow-origin']).toBe(DASHBOARD);
    expect(res.headers['access-control-expose-headers'].split(',')).toEqual(
      expect.arrayContaining([
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'Retry-After',
        'X-Request-Id',
      ]),
    );
  });

  it('gives any other origin no CORS header at all (no wildcard)', async () => {
    for (const origin of ['https://evil.example.com', `${DASHBOARD}.evil.com`, 'null']) {
      const preflight = await request(t.server)
        .options('/api/v1/defi/swap')
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'POST');
      expect(corsHeaders(preflight.headers)).toEqual([]);
      const simple = await request(t.server).get('/health/live').set('Origin', origin);
      expect(simple.status).toBe(200);
      expect(corsHeaders(simple.headers)).toEqual([]);
    }
  });
});

describe('CORS off by default; /docs over plain HTTP', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('sends no CORS headers when CORS_ORIGINS is unset', async () => {
    const res = await request(t.server)
      .options('/api/v1/defi/swap')
      .set('Origin', DASHBOARD)
      .set('Access-Control-Request-Method', 'POST');
    expect(corsHeaders(res.headers)).toEqual([]);
  });

  it('serves /docs on any host without upgrade-insecure-requests; the API keeps it', async () => {
    const docs = await request(t.server).get('/docs').set('Host', 'api.internal:3000');
    expect(docs.status).toBe(200);
    expect(docs.text).toContain('swagger');
    const csp = docs.headers['content-security-policy'];
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    const asset = await request(t.server).get('/docs/swagger-ui-init.js').expect(200);
    expect(asset.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    const json = await request(t.server).get('/docs/json').expect(200);
    expect(json.body.openapi).toMatch(/^3\./);
    const api = await request(t.server).get('/health/live').expect(200);
    expect(api.headers['content-security-policy']).toContain('upgrade-insecure-requests');
  });
});

describe('DOCS_ENABLED=false', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { DOCS_ENABLED: 'false' } });
  });
  afterAll(() => t?.close());

  it('serves neither /docs nor /docs/json', async () => {
    for (const path of ['/docs', '/docs/json']) {
      const res = await request(t.server).get(path).expect(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    await request(t.server).get('/health/live').expect(200);
  });
});
