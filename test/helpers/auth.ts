import request from 'supertest';
import type { Scope } from '../../src/auth/scopes';
import type { TestAccount, TestApp } from './app';

export interface LoginResult {
  accessToken: string;
  refreshToken: string;
}

/** POST /auth/login for a test account; returns the access token (Bearer). */
export async function login(
  t: TestApp,
  account: Pick<TestAccount, 'email' | 'password'>,
): Promise<string> {
  return (await loginPair(t, account)).accessToken;
}

/** POST /auth/login, returning both tokens. */
export async function loginPair(
  t: TestApp,
  account: Pick<TestAccount, 'email' | 'password'>,
): Promise<LoginResult> {
  const res = await request(t.server)
    .post('/auth/login')
    .send({ email: account.email, password: account.password });
  if (res.status !== 200)
    throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { accessToken: res.body.accessToken, refreshToken: res.body.refreshToken };
}

/** POST /api/v1/api-keys with a dashboard token; returns the key id and the full key (shown once). */
export async function createApiKey(
  t: TestApp,
  accessToken: string,
  scopes: Scope[],
  opts: { name?: string; expiresAt?: Date | string } = {},
): Promise<{ id: string; key: string }> {
  const expiresAt = opts.expiresAt instanceof Date ? opts.expiresAt.toISOString() : opts.expiresAt;
  const res = await request(t.server)
    .post('/api/v1/api-keys')
    .set('Authorization', `Bearer ${accessToken}`)
    .send({ name: opts.name ?? 'test key', scopes, ...(expiresAt ? { expiresAt } : {}) });
  if (res.status !== 201)
    throw new Error(`createApiKey failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id, key: res.body.key };
}

/** Unique Redis key prefix per test app, so concurrent runs on one Redis never share counters. */
export function uniqueRedisPrefix(label = 'test'): string {
  return `cgk-test:${label}:${process.pid}:${Date.now().toString(36)}:${Math.random().toString(36).slice(2, 8)}:`;
}
