import { DataSource } from 'typeorm';
import { OPERATOR_ACTOR } from '../../events/activity-event';
import { ActivityLog } from '../../events/activity-log';
import { RecoveryCode } from './recovery-code.entity';
import { UserTotp } from './user-totp.entity';

export interface MfaResetResult {
  userId: string;
  accountId: string;
  /** Whether an authenticator (enabled or pending) was removed. */
  removedAuthenticator: boolean;
  removedRecoveryCodes: number;
}

/**
 * The operator's recovery for a lost authenticator (`npm run cli -- users reset-mfa --email E`):
 * removes the user's TOTP secret and recovery codes, so the password alone signs in and the user
 * sets up a new authenticator (again required at sign-in when the account requires it). Audited
 * as `mfa.reset` with the operator as actor (OPERATOR_ID, else the OS user), in the same
 * transaction.
 * A function over the DataSource, not a service: the CLI runs it without the HTTP auth stack.
 */
export async function resetSecondFactor(
  dataSource: DataSource,
  activityLog: ActivityLog,
  user: { userId: string; accountId: string },
): Promise<MfaResetResult> {
  return dataSource.transaction(async (manager) => {
    const codes = await manager.delete(RecoveryCode, { userId: user.userId });
    const totp = await manager.delete(UserTotp, { userId: user.userId });
    const result = {
      ...user,
      removedAuthenticator: (totp.affected ?? 0) > 0,
      removedRecoveryCodes: codes.affected ?? 0,
    };
    await activityLog.record(
      {
        accountId: user.accountId,
        type: 'mfa.reset',
        actor: OPERATOR_ACTOR,
        target: { type: 'user', id: user.userId },
        data: {
          method: 'totp',
          removedAuthenticator: result.removedAuthenticator,
          removedRecoveryCodes: result.removedRecoveryCodes,
        },
      },
      manager,
    );
    return result;
  });
}
