import { createPrivateKey } from 'node:crypto';
import { CompactSign, compactVerify, importJWK } from 'jose';
import { generateEs256Key } from '../../config/es256-key';
import { compactJws } from './compact-jws';

describe('compactJws (ES256)', () => {
  it('makes what jose makes, but for the randomized signature, and jose verifies it', async () => {
    const key = generateEs256Key();
    const privateKey = createPrivateKey({ key: key.privateJwk as never, format: 'jwk' });
    const publicKey = await importJWK(key.publicJwk, 'ES256');
    const joseKey = await importJWK(key.privateJwk, 'ES256');
    for (const payload of [
      '{}',
      JSON.stringify({ amount: '-1', note: 'é €  ' }),
      'x'.repeat(5000),
    ]) {
      const ours = compactJws(payload, { kid: key.kid, typ: 'compliance-receipt' }, privateKey);
      const theirs = await new CompactSign(new TextEncoder().encode(payload))
        .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'compliance-receipt' })
        .sign(joseKey);
      expect(ours.split('.').slice(0, 2)).toEqual(theirs.split('.').slice(0, 2));
      expect(ours.split('.')[2]).toHaveLength(86); // 64 bytes, R || S
      const verified = await compactVerify(ours, publicKey, { algorithms: ['ES256'] });
      expect(new TextDecoder().decode(verified.payload)).toBe(payload);
      expect(verified.protectedHeader).toEqual({
        alg: 'ES256',
        kid: key.kid,
        typ: 'compliance-receipt',
      });
    }
  });

  it('is refused by jose under another key', async () => {
    const [a, b] = [generateEs256Key(), generateEs256Key()];
    const jws = compactJws(
      '{}',
      { kid: a.kid, typ: 'x' },
      createPrivateKey({ key: a.privateJwk as never, format: 'jwk' }),
    );
    await expect(compactVerify(jws, await importJWK(b.publicJwk, 'ES256'))).rejects.toThrow(
      /signature verification failed/,
    );
  });
});
