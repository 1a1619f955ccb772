import { createHash, randomBytes } from 'node:crypto';

/** A mailed sign-up confirmation token: `suc_` + 256 random bits (base64url); stored as SHA-256. */
const SIGNUP_TOKEN = /^suc_[A-Za-z0-9_-]{43}$/;

export function generateSignupToken(): string {
  return `suc_${randomBytes(32).toString('base64url')}`;
}

export function isSignupToken(text: string): boolean {
  return SIGNUP_TOKEN.test(text);
}

export function hashMailedToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
