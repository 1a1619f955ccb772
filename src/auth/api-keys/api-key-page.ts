/** Keyset pagination of an account's keys, newest first: an opaque cursor of (createdAt, id). */
export interface ApiKeyCursor {
  createdAt: Date;
  id: string;
}

export const API_KEY_PAGE_DEFAULT = 50;
export const API_KEY_PAGE_MAX = 100;

export function encodeApiKeyCursor(cursor: ApiKeyCursor): string {
  return Buffer.from(`${cursor.createdAt.getTime()}.${cursor.id}`, 'utf8').toString('base64url');
}

/** undefined for anything that is not a cursor this service issued. */
export function decodeApiKeyCursor(text: string): ApiKeyCursor | undefined {
  const match = /^(\d{1,15})\.([0-9a-f-]{36})$/.exec(Buffer.from(text, 'base64url').toString());
  if (!match) return undefined;
  return { createdAt: new Date(Number(match[1])), id: match[2] };
}
