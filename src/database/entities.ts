import { Account } from '../accounts/account.entity';
import { User } from '../auth/users/user.entity';
import { Wallet } from '../compliance/wallets/wallet.entity';

/** Every TypeORM entity, listed explicitly so the app, the CLI and the tests agree. */
export const ENTITIES = [Account, User, Wallet];
