/**
 * How many active keys an account may hold. The plans live in src/accounts, which sits beside auth
 * and already depends on it; AccountsModule provides this port (globally) so that auth needs no
 * import of accounts.
 */
export const API_KEY_CAP = Symbol('API_KEY_CAP');

export interface ApiKeyCap {
  maxApiKeys(accountId: string): Promise<number>;
}
