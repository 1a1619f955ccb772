/**
 * Issue 13 item 1: the document /docs/json serves is a contract a generator can use: one
 * lowerCamelCase operationId per operation, a 2xx schema, every error an ErrorEnvelope, servers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { createTestApp, TestApp } from '../helpers/app';

type Schema = { $ref?: string; properties?: Record<string, unknown>; required?: string[] };
type Response = { content?: Record<string, { schema?: Schema }> };
type Operation = {
  operationId?: string;
  description?: string;
  responses: Record<string, Response>;
};
interface Document {
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/**
 * Operations whose success response has no schema yet (their response DTOs come with the next
 * change to their controllers). Empty this list as they are converted: the test fails when a
 * listed operation already has its schema, so the list can only shrink.
 */
const SUCCESS_SCHEMA_PENDING: string[] = [];

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const ENVELOPE_REF = '#/components/schemas/ErrorEnvelope';

describe('The published OpenAPI document', () => {
  let t: TestApp;
  let doc: Document;
  let operations: Array<{ path: string; method: string; op: Operation }>;

  beforeAll(async () => {
    t = await createTestApp();
    doc = (await request(t.server).get('/docs/json').expect(200)).body;
    operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] })),
    );
  });
  afterAll(() => t.close());

  it('names a server and lists the operations', () => {
    expect(doc.servers?.length).toBeGreaterThan(0);
    expect(doc.servers![0].url).toBeTruthy();
    expect(operations.length).toBeGreaterThanOrEqual(15);
  });

  it('gives every operation a unique lowerCamelCase operationId', () => {
    const ids = operations.map(({ op }) => op.operationId);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('documents each versioned/unversioned pair once, naming the alias; both paths answer', async () => {
    const paths = Object.keys(doc.paths);
    for (const alias of [
      '/auth/login',
      '/onboarding/register',
      '/verify',
      '/defi/preflight/{address}',
    ]) {
      expect(paths).not.toContain(alias);
      const versioned = `/api/v1${alias}`;
      expect(paths).toContain(versioned);
      const op = Object.values(doc.paths[versioned])[0];
      expect(op.description).toContain(
        `Also served at \`${op === doc.paths[versioned].get ? 'GET' : 'POST'} ${alias}\``,
      );
    }
    const res = await request(t.server).post('/auth/login').send({});
    expect(res.body.code).toBe('INVALID_PARAMS');
    const v1 = await request(t.server).post('/api/v1/auth/login').send({});
    expect(v1.body.code).toBe('INVALID_PARAMS');
  });

  it('has one ErrorEnvelope component with details and retryAfter', () => {
    const envelope = doc.components.schemas.ErrorEnvelope;
    expect(envelope.required).toEqual(
      expect.arrayContaining(['error', 'code', 'message', 'hint', 'phase']),
    );
    expect(Object.keys(envelope.properties ?? {})).toEqual(
      expect.arrayContaining(['details', 'retryAfter']),
    );
    expect(envelope.required).not.toContain('retryAfter');
  });

  it('gives every error response the ErrorEnvelope schema', () => {
    let errors = 0;
    for (const { path, method, op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        errors += 1;
        const schema = response.content?.['application/json']?.schema;
        expect({ path, method, status, ref: schema?.$ref }).toEqual({
          path,
          method,
          status,
          ref: ENVELOPE_REF,
        });
      }
    }
    expect(errors).toBeGreaterThan(operations.length);
  });

  it("shows no wallet the tours of README.md and the integrators' guide use (trying one would take it)", () => {
    const toured = new Set<string>();
    const integrators = readdirSync(join(__dirname, '..', '..', 'docs', 'integrators'))
      .filter((file) => file.endsWith('.md'))
      .map((file) => `docs/integrators/${file}`);
    for (const page of ['README.md', 'docs/integrators.md', ...integrators]) {
      const markdown = readFileSync(join(__dirname, '..', '..', page), 'utf8');
      for (const block of markdown.matchAll(/^```(?:sh|bash)\n([\s\S]*?)^```/gm))
        for (const [address] of block[1].matchAll(/0x[0-9a-fA-F]{40}\b/g))
          toured.add(address.toLowerCase());
    }
    toured.delete(`0x${'0'.repeat(40)}`); // native ETH in a pool key, nobody's wallet
    expect(toured.size).toBeGreaterThan(0);
    const shown = [...JSON.stringify(doc).matchAll(/0x[0-9a-fA-F]{40}\b/g)].map(([a]) =>
      a.toLowerCase(),
    );
    expect(shown.filter((address) => toured.has(address))).toEqual([]);
  });

  it('documents at least one error response (4xx/5xx) for every operation', () => {
    const silent = operations
      .filter(({ op }) => !Object.keys(op.responses).some((status) => Number(status) >= 400))
      .map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(silent).toEqual([]);
  });

  it('gives every operation a 2xx response with a schema (204: no body), but those pending', () => {
    const missing: string[] = [];
    for (const { op } of operations) {
      const success = Object.entries(op.responses).filter(([s]) => /^2\d\d$/.test(s));
      expect({ id: op.operationId, successes: success.length > 0 }).toEqual({
        id: op.operationId,
        successes: true,
      });
      // A stream of JSON lines (the receipts' export) types each line.
      const typed = success.every(
        ([status, r]) =>
          status === '204' ||
          (r.content?.['application/json'] ?? r.content?.['application/x-ndjson'])?.schema !==
            undefined,
      );
      if (!typed) missing.push(op.operationId!);
    }
    expect(missing.sort()).toEqual([...SUCCESS_SCHEMA_PENDING].sort());
  });

  it('lists the refusals a DeFi build can answer (validation, preflight, chain)', () => {
    const statuses = (id: string) =>
      Object.keys(operations.find(({ op }) => op.operationId === id)!.op.responses).sort();
    for (const id of ['swap', 'addLiquidity', 'increaseLiquidity']) {
      expect({ id, statuses: statuses(id) }).toEqual({
        id,
        statuses: expect.arrayContaining(['400', '403', '412', '413', '415', '503']),
      });
    }
    expect(statuses('decreaseLiquidity')).not.toContain('412');
    expect(statuses('collectFees')).not.toContain('412');
    expect(statuses('getPosition')).toEqual(expect.arrayContaining(['404']));
  });

  it('states the auth (and scope) each operation needs in its description', () => {
    for (const { op } of operations) expect(op.description).toMatch(/\*\*Auth:\*\*/);
    const byId = Object.fromEntries(operations.map(({ op }) => [op.operationId, op]));
    expect(byId.getUsageStats.description).toContain('`usage:read`');
    expect(byId.getDefiConfig.description).toContain('`defi:preflight`');
    expect(byId.createApiKey.description).toMatch(/dashboard login only/);
    expect(byId.login.description).toMatch(/none \(public\)/);
  });

  it('marks the new key required and types counts as integers', () => {
    const created = doc.components.schemas.CreatedApiKeyResponse;
    expect(created.required).toContain('key');
    const tokens = doc.components.schemas.TokenPairResponse as {
      properties: Record<string, { type?: string }>;
    };
    expect(tokens.properties.expiresIn.type).toBe('integer');
  });
});
