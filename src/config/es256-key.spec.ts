import { generateKeyPairSync } from 'node:crypto';
import { calculateJwkThumbprint } from 'jose';
import { generateEs256Key, jwkThumbprint, parseEs256PrivateKey } from './es256-key';

describe('ES256 keys', () => {
  it('reads a private JWK and a PKCS#8 or SEC1 PEM (with \\n escapes) to the same key', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = JSON.stringify(privateKey.export({ format: 'jwk' }));
    const pkcs8 = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const sec1 = privateKey.export({ format: 'pem', type: 'sec1' }).toString();
    const fromJwk = parseEs256PrivateKey(jwk)!;
    expect(fromJwk.privateJwk).toEqual(expect.objectContaining({ kty: 'EC', crv: 'P-256' }));
    expect(parseEs256PrivateKey(pkcs8)).toEqual(fromJwk);
    expect(parseEs256PrivateKey(sec1)).toEqual(fromJwk);
    expect(parseEs256PrivateKey(pkcs8.replace(/\n/g, '\\n'))).toEqual(fromJwk);
    // The PEM's body on one line (what keys generate prints): no character an env file quotes.
    expect(fromJwk.pkcs8).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(parseEs256PrivateKey(fromJwk.pkcs8)).toEqual(fromJwk);
    expect(fromJwk.publicJwk).not.toHaveProperty('d');
  });

  it('names a key by its RFC 7638 thumbprint, as jose computes it', async () => {
    const key = generateEs256Key();
    expect(key.kid).toBe(await calculateJwkThumbprint(key.publicJwk, 'sha256'));
    expect(jwkThumbprint(key.publicJwk)).toBe(key.kid);
  });

  it('refuses a public key, another curve, another algorithm and garbage', () => {
    const key = generateEs256Key();
    expect(parseEs256PrivateKey(JSON.stringify(key.publicJwk))).toBeNull();
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey;
    expect(parseEs256PrivateKey(JSON.stringify(p384.export({ format: 'jwk' })))).toBeNull();
    const ed = generateKeyPairSync('ed25519').privateKey;
    expect(parseEs256PrivateKey(ed.export({ format: 'pem', type: 'pkcs8' }).toString())).toBeNull();
    expect(parseEs256PrivateKey('0x1234')).toBeNull();
    expect(parseEs256PrivateKey('{"kty":"EC","d":"nope"}')).toBeNull();
  });
});
