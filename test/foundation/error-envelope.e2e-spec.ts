import request from 'supertest';
import { createTestApp, TestApp } from '../helpers/app';
import { ErrorProbeController } from '../helpers/error-probe.controller';

const VALID = {
  tokenIn: '0x4200000000000000000000000000000000000006',
  label: 'x',
  count: 2,
  inner: { wallet: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
};

function expectEnvelope(
  body: Record<string, unknown>,
  status: string,
  code: string,
  phase: string,
) {
  expect(body.error).toBe(status);
  expect(body.code).toBe(code);
  expect(body.phase).toBe(phase);
  expect(typeof body.message).toBe('string');
  expect((body.message as string).length).toBeGreaterThan(0);
  expect(typeof body.hint).toBe('string');
  expect((body.hint as string).length).toBeGreaterThan(0);
  expect(JSON.stringify(body)).not.toMatch(/"stack"|\s+at \S+ \(|\.ts:\d|SELECT|no_such_table/i);
}

describe('Error envelope (spec §2.4)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ extra: { controllers: [ErrorProbeController] } });
  });
  afterAll(() => t.close());

  it('renders a thrown ApiError with its catalogue status, phase and the given hint', async () => {
    const res = await request(t.server).get('/test-probe/api-error').expect(400);
    expectEnvelope(res.body, 'Bad Request', 'UNSUPPORTED_TOKEN', 'preflight');
    expect(res.body.message).toBe('Token 0xabc is not supported');
    expect(res.body.hint).toBe('Use tUSDC instead');
    expect(res.body.details).toBeUndefined();
  });

  it('answers an unknown route with 404 NOT_FOUND', async () => {
    const res = await request(t.server).get('/api/v1/nothing-here').expect(404);
    expectEnvelope(res.body, 'Not Found', 'NOT_FOUND', 'validation');
  });

  it('answers malformed JSON with 400 INVALID_PARAMS', async () => {
    const res = await request(t.server)
      .post('/test-probe/validate')
      .set('Content-Type', 'application/json')
      .send('{"tokenIn": ')
      .expect(400);
    expectEnvelope(res.body, 'Bad Request', 'INVALID_PARAMS', 'validation');
    expect(res.body.message).toBe('Request body is not valid JSON');
  });

  it('answers a body over 16 KiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await request(t.server)
      .post('/test-probe/validate')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ ...VALID, label: 'x'.repeat(17 * 1024) }))
      .expect(413);
    expectEnvelope(res.body, 'Payload Too Large', 'PAYLOAD_TOO_LARGE', 'validation');
  });

  it('accepts a body just under 16 KiB', async () => {
    const body = JSON.stringify({ ...VALID, label: 'x'.repeat(15 * 1024) });
    await request(t.server)
      .post('/test-probe/validate')
      .set('Content-Type', 'application/json')
      .send(body)
      .expect(201);
  });

  it('maps other Nest HTTP exceptions without leaking their text', async () => {
    const res = await request(t.server).get('/test-probe/http-exception').expect(500);
    expectEnvelope(res.body, 'Internal Server Error', 'INTERNAL_ERROR', 'build');
  });

  it('answers an unexpected exception with 500 INTERNAL_ERROR and an error id, no stack', async () => {
    const res = await request(t.server).get('/test-probe/crash').expect(500);
    expectEnvelope(res.body, 'Internal Server Error', 'INTERNAL_ERROR', 'build');
    expect(res.body.errorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(res.body)).not.toContain('secret internal detail');
  });

  it('never puts SQL text in the body of a database error', async () => {
    const res = await request(t.server).get('/test-probe/sql-error').expect(500);
    expectEnvelope(res.body, 'Internal Server Error', 'INTERNAL_ERROR', 'build');
  });

  it('lists every field error in details (INVALID_PARAMS), recursing into nested objects', async () => {
    const res = await request(t.server)
      .post('/test-probe/validate')
      .send({ tokenIn: 'nope', count: 99, inner: { wallet: 'bad' }, extra: 1 })
      .expect(400);
    expectEnvelope(res.body, 'Bad Request', 'INVALID_PARAMS', 'validation');
    const fields = (
      res.body.details as Array<{ field: string; constraint: string; message: string }>
    ).map((d) => `${d.field}:${d.constraint}`);
    expect(fields).toEqual(
      expect.arrayContaining([
        'tokenIn:isEvmAddress',
        'label:isString',
        'count:max',
        'inner.wallet:isEvmAddress',
        'extra:unknownField',
      ]),
    );
    for (const d of res.body.details) expect(typeof d.message).toBe('string');
  });

  it('answers INVALID_ADDRESS when only address formats fail', async () => {
    const res = await request(t.server)
      .post('/test-probe/validate')
      .send({ ...VALID, tokenIn: '0x123' })
      .expect(400);
    expectEnvelope(res.body, 'Bad Request', 'INVALID_ADDRESS', 'validation');
    expect(res.body.details).toEqual([
      expect.objectContaining({ field: 'tokenIn', constraint: 'isEvmAddress' }),
    ]);
  });

  it('refuses a mixed-case address with a wrong EIP-55 checksum, accepts lower case', async () => {
    const bad = '0x70997970c51812DC3A010C7d01b50e0d17dc79C8';
    const res = await request(t.server)
      .post('/test-probe/validate')
      .send({ ...VALID, inner: { wallet: bad } })
      .expect(400);
    expect(res.body.code).toBe('INVALID_ADDRESS');
    await request(t.server)
      .post('/test-probe/validate')
      .send({ ...VALID, inner: { wallet: VALID.inner.wallet.toLowerCase() } })
      .expect(201);
  });

  it('validates query strings the same way', async () => {
    const res = await request(t.server).get('/test-probe/query?address=0xzz').expect(400);
    expectEnvelope(res.body, 'Bad Request', 'INVALID_ADDRESS', 'validation');
    await request(t.server).get(`/test-probe/query?address=${VALID.tokenIn}`).expect(200);
  });

  it('echoes a sane X-Request-Id and generates one otherwise', async () => {
    const res = await request(t.server)
      .get('/health/live')
      .set('X-Request-Id', 'abc-123')
      .expect(200);
    expect(res.headers['x-request-id']).toBe('abc-123');
    const gen = await request(t.server)
      .get('/health/live')
      .set('X-Request-Id', 'bad id with spaces')
      .expect(200);
    expect(gen.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
