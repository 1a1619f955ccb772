/**
 * ES256 (ECDSA P-256, RFC 7518 §3.4) keys as the service takes them: a private JWK (RFC 7517,
 * `{"kty":"EC","crv":"P-256","x","y","d"}`), a PEM (PKCS#8 `BEGIN PRIVATE KEY`, or SEC1
 * `BEGIN EC PRIVATE KEY`; `\n` escapes stand for newlines, as an env file holds one line), or a
 * PKCS#8 PEM's body alone: its base64 on one line, what `keys generate` prints, since it needs no
 * quoting in any env file (a JWK's quotes and a PEM's spaces do, in a shell-sourced one). Their
 * public half is published with its RFC 7638 thumbprint as `kid`. Pure, node:crypto only.
 */
import { createHash, createPrivateKey, generateKeyPairSync, KeyObject } from 'node:crypto';

export interface Es256PublicJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
}

export interface Es256PrivateJwk extends Es256PublicJwk {
  d: string;
}

/** The key a receipt is signed with: its private JWK, its public JWK, and the public key's kid. */
export interface Es256Key {
  privateJwk: Es256PrivateJwk;
  /** The private key as one line of base64 (PKCS#8 DER): safe in any env file. */
  pkcs8: string;
  publicJwk: Es256PublicJwk;
  kid: string;
}

/** A P-256 private key from a JWK or PEM text; null when the text is neither, or another curve. */
export function parseEs256PrivateKey(text: string): Es256Key | null {
  const trimmed = text.trim();
  let key: KeyObject;
  try {
    if (trimmed.startsWith('{')) {
      const jwk = JSON.parse(trimmed) as Record<string, unknown>;
      if (typeof jwk.d !== 'string') return null;
      key = createPrivateKey({ key: jwk as never, format: 'jwk' });
    } else if (trimmed.startsWith('-----BEGIN')) {
      key = createPrivateKey({ key: trimmed.replace(/\\n/g, '\n'), format: 'pem' });
    } else if (/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed)) {
      key = createPrivateKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'pkcs8' });
    } else {
      return null;
    }
  } catch {
    return null;
  }
  return es256KeyOf(key);
}

function es256KeyOf(key: KeyObject): Es256Key | null {
  if (key.asymmetricKeyType !== 'ec') return null;
  const jwk = key.export({ format: 'jwk' }) as Record<string, string>;
  if (jwk.crv !== 'P-256' || !jwk.d || !jwk.x || !jwk.y) return null;
  const publicJwk: Es256PublicJwk = { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
  const privateJwk: Es256PrivateJwk = { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, d: jwk.d };
  const pkcs8 = key.export({ format: 'der', type: 'pkcs8' }).toString('base64');
  return { privateJwk, pkcs8, publicJwk, kid: jwkThumbprint(publicJwk) };
}

/**
 * RFC 7638 thumbprint of an EC public key: SHA-256 over the required members in lexicographic
 * order, base64url. Anyone holding the public key derives the same `kid`.
 */
export function jwkThumbprint(jwk: Es256PublicJwk): string {
  const canonical = `{"crv":"${jwk.crv}","kty":"${jwk.kty}","x":"${jwk.x}","y":"${jwk.y}"}`;
  return createHash('sha256').update(canonical).digest('base64url');
}

/** A fresh P-256 key (the dev default under DATA_DIR, and `npm run cli -- keys generate`). */
export function generateEs256Key(): Es256Key {
  return es256KeyOf(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey)!;
}
