import type { Base32Plugin, CryptoPlugin, HashAlgorithm } from '@otplib/core';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * otplib v13's crypto and base32 plugins on node:crypto. Its default plugins (@noble/hashes,
 * @scure/base) are ES-module-only packages that Jest's CommonJS runtime cannot load; these
 * replace them with no new dependency, and the RFC 6238 logic stays otplib's (@otplib/totp).
 */
export const nodeCrypto: CryptoPlugin = {
  name: 'node',
  hmac(algorithm: HashAlgorithm, key: Uint8Array, data: Uint8Array): Uint8Array {
    return createHmac(algorithm.toLowerCase().replace('-', ''), key).update(data).digest();
  },
  randomBytes(length: number): Uint8Array {
    return randomBytes(length);
  },
  constantTimeEqual(a: string | Uint8Array, b: string | Uint8Array): boolean {
    const [left, right] = [Buffer.from(a), Buffer.from(b)];
    return left.length === right.length && timingSafeEqual(left, right);
  },
};

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 (authenticator apps' secret format), unpadded on output. */
export const base32: Base32Plugin = {
  name: 'rfc4648',
  encode(data: Uint8Array, options?: { padding?: boolean }): string {
    let bits = 0;
    let value = 0;
    let out = '';
    for (const byte of data) {
      value = (value << 8) | byte;
      bits += 8;
      while (bits >= 5) {
        out += ALPHABET[(value >>> (bits - 5)) & 31];
        bits -= 5;
      }
    }
    if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
    return options?.padding ? out.padEnd(Math.ceil(out.length / 8) * 8, '=') : out;
  },
  decode(text: string): Uint8Array {
    const clean = text.toUpperCase().replace(/=+$/, '').replace(/\s/g, '');
    let bits = 0;
    let value = 0;
    const out: number[] = [];
    for (const char of clean) {
      const index = ALPHABET.indexOf(char);
      if (index < 0) throw new Error('Invalid base32 character');
      value = (value << 5) | index;
      bits += 5;
      if (bits >= 8) {
        out.push((value >>> (bits - 8)) & 255);
        bits -= 8;
      }
    }
    return Uint8Array.from(out);
  },
};
