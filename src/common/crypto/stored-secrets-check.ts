/**
 * The start-up check of secrets kept encrypted in the database (TOTP secrets, webhook signing
 * secrets): the newest stored one must open with the configured keys, or the service refuses to
 * start naming the setting, instead of failing every sign-in or delivery later with a bare
 * "Unsupported state or unable to authenticate data". Every other stored one opened by an older
 * key is re-encrypted under the current key, so the older key can then be removed.
 */
export class StoredSecretUnreadableError extends Error {
  constructor(
    readonly setting: string,
    what: string,
    remedy: string,
  ) {
    super(`${setting} does not decrypt ${what}: ${remedy}`);
    this.name = 'StoredSecretUnreadableError';
  }
}

export interface ReencryptionReport {
  checked: number;
  reencrypted: number;
  /** Ids of the values no listed key opens (left as they are). */
  unreadable: string[];
}
