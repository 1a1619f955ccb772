/**
 * Issue 43 item 5: app lines carry the request id too ("API key created" had none), the same id
 * as the request's own line and the X-Request-Id answer header, and concurrent requests keep theirs.
 */
import { Logger } from '@nestjs/common';
import request from 'supertest';
import { createTestApp, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';
import { captureStdout } from '../helpers/capture-stdout';
import { pollUntil } from '../helpers/wait';

describe('Request id on app lines', () => {
  let t: TestApp;
  let stdout: ReturnType<typeof captureStdout>;
  beforeAll(async () => {
    stdout = captureStdout();
    t = await createTestApp({ env: { LOG_LEVEL: 'info', LOG_FORMAT: 'json' } });
  });
  afterAll(async () => {
    await t?.close();
    stdout?.restore();
  });

  const lines = () =>
    stdout
      .text()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it('"API key created" carries the requestId of its request, each of three concurrent ones its own', async () => {
    const token = await login(t, await t.createAccount());
    const ids = ['key-req-a', 'key-req-b', 'key-req-c'];
    const answers = await Promise.all(
      ids.map((id) =>
        request(t.server)
          .post('/api/v1/api-keys')
          .set('Authorization', `Bearer ${token}`)
          .set('X-Request-Id', id)
          .send({ name: id, scopes: ['usage:read'] })
          .expect(201),
      ),
    );
    expect(answers.map((res) => res.headers['x-request-id'])).toEqual(ids);
    const created = await pollUntil(
      'three "API key created" lines',
      () => lines().filter((line) => line.msg === 'API key created'),
      (found) => found.length === 3,
    );
    const byKey = new Map(
      answers.map((res) => [res.body.id as string, res.headers['x-request-id']]),
    );
    for (const line of created) expect(line.requestId).toBe(byKey.get(line.apiKeyId as string));
    // And the request's own line has the same id.
    const requestLines = lines().filter(
      (line) => (line.req as { url?: string } | undefined)?.url === '/api/v1/api-keys',
    );
    expect(requestLines.map((line) => (line.req as { id: string }).id).sort()).toEqual(ids);
  });

  it('a line logged outside any request carries no requestId', async () => {
    new Logger('OutsideProbe').log('no request here');
    const [line] = await pollUntil(
      'the probe line',
      () => lines().filter((entry) => entry.context === 'OutsideProbe'),
      (found) => found.length === 1,
    );
    expect(line.msg).toBe('no request here');
    expect(line).not.toHaveProperty('requestId');
  });
});
