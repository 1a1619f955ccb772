import request from 'supertest';
import { createTestApp } from '../helpers/app';
import { createApiKey, loginPair } from '../helpers/auth';
import { captureStdout } from '../helpers/capture-stdout';
import { AuthProbeController } from './auth-probe.controller';

describe.each(['info', 'debug'])('No secret in logs or list responses (LOG_LEVEL=%s)', (level) => {
  it('never logs a password, API key, access or refresh token', async () => {
    const capture = captureStdout();
    const secrets: string[] = [];
    let listBody = '';
    try {
      const t = await createTestApp({
        // No retry grace: the second presentation below is reuse, whose refusal is logged.
        env: { LOG_LEVEL: level, AUTH_REFRESH_REUSE_GRACE_SECONDS: '0' },
        extra: { controllers: [AuthProbeController] },
      });
      try {
        const account = await t.createAccount();
        secrets.push(account.password);
        await request(t.server)
          .post('/auth/login')
          .send({ email: account.email, password: 'a wrong password 42' })
          .expect(401);
        secrets.push('a wrong password 42');
        const pair = await loginPair(t, account);
        secrets.push(pair.accessToken, pair.refreshToken);
        const key = await createApiKey(t, pair.accessToken, ['defi:swap']);
        secrets.push(key.key);
        await request(t.server)
          .post('/api/v1/test-protected/swap')
          .set('X-API-Key', key.key)
          .send({ label: 'x', count: 1 })
          .expect(201);
        await request(t.server)
          .post('/api/v1/test-protected/swap')
          .set('X-API-Key', `${key.key.slice(0, -1)}x`)
          .send({ label: 'x', count: 1 })
          .expect(401);
        await request(t.server)
          .get('/api/v1/test-protected/fail')
          .set('Authorization', `Bearer ${pair.accessToken}`)
          .expect(500);
        await request(t.server)
          .get(`/api/v1/test-protected/preflight/${key.key}`)
          .set('Authorization', 'Bearer not.a.jwt')
          .expect(401);
        const refreshed = await request(t.server)
          .post('/auth/refresh')
          .send({ refreshToken: pair.refreshToken })
          .expect(200);
        secrets.push(refreshed.body.accessToken, refreshed.body.refreshToken);
        await request(t.server)
          .post('/auth/refresh')
          .send({ refreshToken: pair.refreshToken })
          .expect(401);
        listBody = JSON.stringify(
          (
            await request(t.server)
              .get('/api/v1/api-keys')
              .set('Authorization', `Bearer ${refreshed.body.accessToken}`)
          ).body,
        );
      } finally {
        await t.close();
      }
    } finally {
      capture.restore();
    }
    const logs = capture.text();
    expect(logs).toMatch(/request completed|"msg"/); // the capture did see the log lines
    for (const secret of secrets) {
      // Whole secrets and any 24-character piece of them (keys: the 48-hex tail; JWTs: their signature).
      const pieces = [secret, secret.slice(-24), secret.slice(0, 24)];
      for (const piece of pieces) {
        expect(logs.includes(piece) ? piece : null).toBeNull();
        expect(listBody.includes(piece) ? piece : null).toBeNull();
      }
    }
  });
});
