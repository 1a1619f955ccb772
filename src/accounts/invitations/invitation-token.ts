import { createHash, randomBytes } from 'node:crypto';

/** `inv_` + 256 random bits (base64url): not guessable, so a fast hash is right for storage. */
const TOKEN = /^inv_[A-Za-z0-9_-]{43}$/;

export function generateInvitationToken(): string {
  return `inv_${randomBytes(32).toString('base64url')}`;
}

export function isInvitationToken(text: string): boolean {
  return TOKEN.test(text);
}

export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
