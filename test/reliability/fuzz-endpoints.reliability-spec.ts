import fc from 'fast-check';
import request from 'supertest';
import { SCOPES } from '../../src/auth/scopes';
import { AccountsService } from '../../src/accounts/accounts.service';
import { ERROR_CATALOGUE, isErrorCode } from '../../src/common/errors/error-catalogue';
import { statusText } from '../../src/common/errors/error-envelope';
import { createTestApp, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import { acquireDevnet, DevnetHandle } from '../helpers/devnet';

const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);

interface Operation {
  method: 'get' | 'post' | 'delete' | 'put' | 'patch';
  path: string;
  bodyFields: string[];
  queryFields: string[];
}

/**
 * Property-based fuzzing of every endpoint the OpenAPI document lists (so new endpoints are
 * fuzzed without editing this file): bodies, query strings, path parameters and credentials are
 * drawn from plausible and hostile values. Every response must be a valid success or a valid
 * envelope whose status, phase and code agree with the catalogue; never a 500.
 */
describe('Fuzzing every endpoint', () => {
  let chain: DevnetHandle;
  let t: TestApp;
  let operations: Operation[];
  let apiKey: string;
  let accessToken: string;
  const wallets: string[] = [];

  beforeAll(async () => {
    chain = await acquireDevnet();
    // The fuzzer sends many bad keys and logins from one address: keep the per-IP failed-auth
    // throttle (tested in test/hardening) out of the way so every operation stays reachable.
    t = await createTestApp({
      env: {
        ...chain.env,
        AUTH_FAILED_API_KEYS_PER_IP_PER_MINUTE: '1000000',
        AUTH_FAILED_LOGINS_PER_IP_PER_MINUTE: '1000000',
      },
    });
    const account = await t.createAccount({ plan: 'enterprise' });
    await t.app.get(AccountsService).setRateLimitOverride(account.accountId, 1_000_000);
    accessToken = await login(t, account);
    apiKey = (await createApiKey(t, accessToken, [...SCOPES])).key;
    wallets.push(...chain.wallets.map((w) => w.address));
    const doc = (await request(t.server).get('/docs/json').expect(200)).body;
    operations = openApiOperations(doc);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.release();
  });

  it(`answers ${RUNS} random requests with valid envelopes or successes, never a 500`, async () => {
    expect(operations.length).toBeGreaterThan(10);
    const statuses = new Map<number, number>();
    const address = () =>
      fc.oneof(
        fc.constantFrom(...wallets, chain.addresses.WETH, chain.addresses.tUSDC),
        fc.constantFrom(...wallets).map((w) => w.toLowerCase()),
        fc.string({ maxLength: 50 }),
        fc.stringMatching(/^0x[0-9a-fA-F]{38,42}$/),
      );
    // Unicode in every string field: astral planes, combining marks, bidi overrides, NUL.
    const unicode = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom('\u202e0x41', 'ａｄｍｉｎ', 'e\u0301', '😀'.repeat(200), '\ud800'),
    );
    const scalar = fc.oneof(
      address(),
      unicode,
      fc.bigInt({ min: -(2n ** 130n), max: 2n ** 130n }).map(String),
      fc.integer({ min: -1_000_000, max: 1_000_000 }),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.string({ maxLength: 80 }),
      fc.constantFrom(
        'WETH',
        '1e18',
        '-1',
        '0',
        ' 1',
        '0x1',
        'NaN',
        '__proto__',
        '{"a":1}',
        '\u0000',
      ),
    );
    const value = fc.oneof(
      { weight: 4, arbitrary: scalar },
      fc.array(scalar, { maxLength: 4 }),
      fc.dictionary(fc.string({ maxLength: 8 }), scalar, { maxKeys: 3 }),
      // Nesting depth on both sides of the body limit (MAX_JSON_DEPTH = 16).
      fc
        .tuple(fc.integer({ min: 1, max: 40 }), scalar)
        .map(([depth, leaf]) => nestValue(depth, leaf)),
    );
    const credentials = fc.constantFrom<
      'key' | 'jwt' | 'none' | 'badKey' | 'badJwt' | 'basic' | 'both'
    >('key', 'key', 'jwt', 'none', 'badKey', 'badJwt', 'basic', 'both');
    const requestArb = fc.record({
      op: fc.integer({ min: 0, max: 10_000 }),
      pathParam: address(),
      body: fc.oneof(
        { weight: 6, arbitrary: fc.constant('fields' as const) },
        fc.constant('garbage' as const),
        fc.constant('array' as const),
        fc.constant('deep' as const),
      ),
      depth: fc.integer({ min: 1, max: 2_500 }),
      values: fc.array(value, { minLength: 12, maxLength: 12 }),
      drop: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
      extraKey: fc.option(fc.string({ minLength: 1, maxLength: 10 })),
      queryValue: fc.option(
        fc.oneof(fc.constantFrom('true', 'false', '1', ''), fc.string({ maxLength: 20 })),
      ),
      credentials,
      garbage: fc.string({ maxLength: 200 }),
    });

    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        const op = operations[r.op % operations.length];
        const path = op.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(String(r.pathParam)));
        const query: Record<string, string> = {};
        for (const q of op.queryFields) if (r.queryValue !== null) query[q] = r.queryValue;
        let req = request(t.server)[op.method](path).query(query);
        req = withCredentials(req, r.credentials, apiKey, accessToken);
        if (op.method !== 'get' && op.method !== 'delete') {
          req = req.set('Content-Type', 'application/json');
          if (r.body === 'garbage') req = req.send(r.garbage);
          else if (r.body === 'array') req = req.send(JSON.stringify(r.values));
          else if (r.body === 'deep') req = req.send(deepText(r.depth));
          else {
            const body: Record<string, unknown> = {};
            op.bodyFields.forEach((field, i) => {
              if (!r.drop[i % 12]) body[field] = r.values[i % 12];
            });
            if (r.extraKey !== null) body[r.extraKey] = r.values[11];
            req = req.send(JSON.stringify(body));
          }
        }
        const res = await req;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        assertValidResponse(res.status, res.body, `${op.method.toUpperCase()} ${path}`);
      }),
      {
        numRuns: RUNS,
        seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31),
        endOnFailure: true,
      },
    );
    process.stdout.write(
      `fuzz: ${RUNS} requests over ${operations.length} operations; statuses ${JSON.stringify(Object.fromEntries(statuses))}\n`,
    );
  }, 600_000);
});

/** `{"a":{"a":...leaf}}`, `depth` objects deep. */
function nestValue(depth: number, leaf: unknown): unknown {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i += 1) value = i % 2 ? [value] : { a: value };
  return value;
}

/** A body nested `depth` levels, as text (deeper than JSON.stringify could build). */
function deepText(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

function withCredentials(
  req: request.Test,
  kind: string,
  apiKey: string,
  jwt: string,
): request.Test {
  switch (kind) {
    case 'key':
      return req.set('X-API-Key', apiKey);
    case 'jwt':
      return req.set('Authorization', `Bearer ${jwt}`);
    case 'badKey':
      return req.set('X-API-Key', `${apiKey.slice(0, -4)}0000`);
    case 'badJwt':
      return req.set('Authorization', `Bearer ${jwt.slice(0, -6)}AAAAAA`);
    case 'basic':
      return req.set('Authorization', 'Basic dXNlcjpwYXNz');
    case 'both':
      return req.set('X-API-Key', 'garbage').set('Authorization', `Bearer ${jwt}`);
    default:
      return req;
  }
}

function assertValidResponse(status: number, body: Record<string, unknown>, label: string): void {
  if (
    status >= 500 &&
    !(status === 503 && ['CHAIN_UNAVAILABLE', 'SERVICE_UNAVAILABLE'].includes(String(body?.code)))
  ) {
    throw new Error(`${label} -> ${status} ${JSON.stringify(body)}`);
  }
  if (status >= 400) {
    const code = String(body?.code);
    if (!isErrorCode(code))
      throw new Error(`${label} -> ${status} with unknown code ${JSON.stringify(body)}`);
    const entry = ERROR_CATALOGUE[code];
    const ok =
      entry.status === status &&
      body.error === statusText(status) &&
      // The phase says where it failed (design §8): the code's own, or broadcast for the relay.
      (body.phase === entry.phase || body.phase === 'broadcast') &&
      typeof body.message === 'string' &&
      typeof body.hint === 'string' &&
      (body.details === undefined || Array.isArray(body.details));
    if (!ok) throw new Error(`${label} -> invalid envelope ${status} ${JSON.stringify(body)}`);
    return;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new Error(`${label} -> ${status} with a non-object body`);
  }
}

function openApiOperations(doc: {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Array<{ in: string; name: string }>;
        requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> };
      }
    >
  >;
  components?: { schemas?: Record<string, { properties?: Record<string, unknown> }> };
}): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => {
      const ref = op.requestBody?.content?.['application/json']?.schema?.$ref;
      const schema = ref ? doc.components?.schemas?.[ref.split('/').pop()!] : undefined;
      return {
        method: method as Operation['method'],
        path,
        bodyFields: Object.keys(schema?.properties ?? {}),
        queryFields: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      };
    }),
  );
}
