import { AccountsUsersWallets1763700000000 } from './1763700000000-accounts-users-wallets';

/** Every migration in order; TypeORM runs the pending ones at start. Append new ones at the end. */
export const MIGRATIONS = [AccountsUsersWallets1763700000000];
