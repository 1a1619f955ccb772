/** Keyset pagination of an account's audit events, newest first: an opaque cursor of `seq`. */
export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;

export function encodeAuditCursor(seq: string): string {
  return Buffer.from(`a.${seq}`, 'utf8').toString('base64url');
}

/** undefined for anything that is not a cursor this service issued. */
export function decodeAuditCursor(text: string): string | undefined {
  return /^a\.(\d{1,19})$/.exec(Buffer.from(text, 'base64url').toString())?.[1];
}
