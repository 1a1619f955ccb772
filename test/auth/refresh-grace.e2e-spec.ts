import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AuthSessionsService, RefreshRotation } from '../../src/auth/tokens/auth-sessions.service';
import { RefreshToken } from '../../src/auth/tokens/refresh-token.entity';
import { JwtTokensService } from '../../src/auth/tokens/jwt-tokens.service';
import { createTestApp, TestAccount, TestApp } from '../helpers/app';
import { loginPair } from '../helpers/auth';
import { testEngine } from '../helpers/test-env';

/**
 * Issue 34 item 4: a client that retries its refresh (a timeout, another replica) gets the same
 * successor back within AUTH_REFRESH_REUSE_GRACE_SECONDS while that successor is unused; any other
 * second use of a refresh token is reuse and revokes the login. On PostgreSQL two instances on one
 * database: the database decides, not either process's memory. (SQLite serves one instance: two
 * connections to one file in one thread would wait on each other's write lock.)
 */
describe(`${AuthSessionsService.name}: refresh rotation with a retry grace`, () => {
  // Two replicas: one database, one shared JWT secret.
  const env = { JWT_SECRET: randomBytes(32).toString('hex') };
  let a: TestApp;
  let b: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    a = await createTestApp({ env });
    b = testEngine() === 'postgres' ? await createTestApp({ env, db: a.db }) : a;
    account = await a.createAccount();
  });
  afterAll(async () => {
    if (b !== a) await b?.close();
    await a?.close();
  });

  async function rotate(t: TestApp, refreshToken: string): Promise<RefreshRotation> {
    const claims = await t.app.get(JwtTokensService).verify(refreshToken, 'refresh');
    return t.app.get(AuthSessionsService).rotateRefreshToken(claims, refreshToken);
  }

  async function sessionIsActive(refreshToken: string): Promise<boolean> {
    const claims = await a.app.get(JwtTokensService).verify(refreshToken, 'refresh');
    return a.app
      .get(AuthSessionsService)
      .isActiveFor(claims.sid, { userId: claims.sub, accountId: claims.acc });
  }

  function successorOf(rotation: RefreshRotation): string {
    if (rotation.outcome !== 'ok') throw new Error(`rotation refused: ${rotation.outcome}`);
    return rotation.successor.token;
  }

  it('two concurrent refreshes of one token (on two replicas on PostgreSQL): the same successor, login kept', async () => {
    const { refreshToken } = await loginPair(a, account);
    const [onA, onB] = await Promise.all([rotate(a, refreshToken), rotate(b, refreshToken)]);
    expect(onA.outcome).toBe('ok');
    expect(onB.outcome).toBe('ok');
    expect(successorOf(onA)).toBe(successorOf(onB));
    expect(successorOf(onA)).not.toBe(refreshToken);
    expect(await sessionIsActive(refreshToken)).toBe(true);

    // The successor is an ordinary refresh token: it rotates once.
    const next = successorOf(await rotate(b, successorOf(onA)));
    expect(await a.app.get(JwtTokensService).verify(next, 'refresh')).toMatchObject({
      typ: 'refresh',
    });
  });

  it('over HTTP: two concurrent POST /auth/refresh with one token both answer 200 with the same refresh token', async () => {
    const { refreshToken } = await loginPair(a, account);
    const answers = await Promise.all(
      [a, b].map((t) => request(t.server).post('/auth/refresh').send({ refreshToken })),
    );
    for (const answer of answers) expect(answer.status).toBe(200);
    const [first, second] = answers.map((answer) => answer.body as Record<string, string>);
    expect(first.refreshToken).toBe(second.refreshToken);
    expect(first.refreshToken).not.toBe(refreshToken);
    for (const { accessToken } of [first, second])
      await request(a.server)
        .get('/api/v1/api-keys')
        .set('Authorization', `Bearer ${accessToken}`)
        .expect(200);
    // The successor refreshes once, as any refresh token.
    await request(b.server)
      .post('/auth/refresh')
      .send({ refreshToken: first.refreshToken })
      .expect(200);
  });

  it('a retry after the successor was used is reuse: the login is revoked', async () => {
    const { refreshToken } = await loginPair(a, account);
    const successor = successorOf(await rotate(a, refreshToken));
    const newest = successorOf(await rotate(b, successor));

    expect((await rotate(a, refreshToken)).outcome).toBe('reused');
    expect(await sessionIsActive(refreshToken)).toBe(false);
    expect((await rotate(a, newest)).outcome).toBe('revoked');
  });

  it('a second use after the grace window is reuse: the login is revoked', async () => {
    const { refreshToken } = await loginPair(a, account);
    expect((await rotate(a, refreshToken)).outcome).toBe('ok');
    // The rotation happened long ago (the default window is 10 s).
    const { jti } = await a.app.get(JwtTokensService).verify(refreshToken, 'refresh');
    await a.app
      .get(DataSource)
      .getRepository(RefreshToken)
      .update({ id: jti }, { usedAt: new Date(Date.now() - 60_000) });

    expect((await rotate(b, refreshToken)).outcome).toBe('reused');
    expect(await sessionIsActive(refreshToken)).toBe(false);
  });

  it('AUTH_REFRESH_REUSE_GRACE_SECONDS=0: any second use is reuse, as before', async () => {
    const strict = await createTestApp({ env: { ...env, AUTH_REFRESH_REUSE_GRACE_SECONDS: '0' } });
    try {
      const { refreshToken } = await loginPair(strict, await strict.createAccount());
      expect((await rotate(strict, refreshToken)).outcome).toBe('ok');
      expect((await rotate(strict, refreshToken)).outcome).toBe('reused');
      const claims = await strict.app.get(JwtTokensService).verify(refreshToken, 'refresh');
      const owner = { userId: claims.sub, accountId: claims.acc };
      expect(await strict.app.get(AuthSessionsService).isActiveFor(claims.sid, owner)).toBe(false);
    } finally {
      await strict.close();
    }
  });

  it('a token that is not ours is unknown, not reuse', async () => {
    const { refreshToken } = await loginPair(a, account);
    const [header, payload] = refreshToken.split('.');
    const claims = await a.app.get(JwtTokensService).verify(refreshToken, 'refresh');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    expect((await a.app.get(AuthSessionsService).rotateRefreshToken(claims, forged)).outcome).toBe(
      'unknown',
    );
    expect(await sessionIsActive(refreshToken)).toBe(true);
  });
});
