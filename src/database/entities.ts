import { Account } from '../accounts/account.entity';
import { ApiKey } from '../auth/api-keys/api-key.entity';
import { IdempotencyRecord } from '../auth/idempotency/idempotency-record.entity';
import { AuthSession } from '../auth/tokens/auth-session.entity';
import { RefreshToken } from '../auth/tokens/refresh-token.entity';
import { User } from '../auth/users/user.entity';
import { Wallet } from '../compliance/wallets/wallet.entity';
import { UsageRecord } from '../usage/usage-record.entity';
import { UsageRollup } from '../usage/rollups/usage-rollup.entity';
import { SiweNonce } from '../compliance/onboarding/siwe-nonce.entity';
import { CredentialRoot } from '../compliance/credentials/credential-root.entity';
import { IssuedCredential } from '../compliance/credentials/issued-credential.entity';
import { VerifyChallenge } from '../compliance/verification/verify-challenge.entity';

/** Every TypeORM entity, listed explicitly so the app, the CLI and the tests agree. */
export const ENTITIES = [
  Account,
  User,
  Wallet,
  ApiKey,
  AuthSession,
  RefreshToken,
  UsageRecord,
  UsageRollup,
  SiweNonce,
  VerifyChallenge,
  CredentialRoot,
  IssuedCredential,
  IdempotencyRecord,
];
