/**
 * Opens a new account with its first user (the owner), for self-service sign-up. Implemented by
 * the accounts module's provisioning service and bound at the wiring level (AppModule): auth sits
 * below accounts, so it names the capability and never imports it.
 */
export interface AccountOpener {
  /** The password is given as an argon2id hash (UsersService.hashPassword), taken at sign-up. */
  createAccountWithUser(input: {
    name: string;
    email: string;
    passwordHash: string;
  }): Promise<{ accountId: string; userId: string }>;
}

export const ACCOUNT_OPENER = Symbol('ACCOUNT_OPENER');
