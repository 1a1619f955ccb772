import { generate } from '@otplib/totp';
import request from 'supertest';
import { base32, nodeCrypto } from '../../src/auth/mfa/otp-plugins';
import type { TestApp } from './app';

/** The code an authenticator app shows `stepsAhead` periods from now (the server accepts ±1). */
export const codeAt = (secret: string, stepsAhead = 0) =>
  generate({
    secret,
    crypto: nodeCrypto,
    base32,
    epoch: Math.floor(Date.now() / 1000) + 30 * stepsAhead,
  });

/** Sets up and enables TOTP for the token's user; returns the secret and the recovery codes. */
export async function enrolTotp(
  t: TestApp,
  accessToken: string,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const auth = { Authorization: `Bearer ${accessToken}` };
  const setup = await request(t.server).post('/api/v1/auth/mfa/totp/setup').set(auth).expect(200);
  const enabled = await request(t.server)
    .post('/api/v1/auth/mfa/totp/enable')
    .set(auth)
    .send({ code: await codeAt(setup.body.secret) })
    .expect(200);
  return { secret: setup.body.secret, recoveryCodes: enabled.body.recoveryCodes };
}
