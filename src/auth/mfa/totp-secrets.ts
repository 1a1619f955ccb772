import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import {
  ReencryptionReport,
  StoredSecretUnreadableError,
} from '../../common/crypto/stored-secrets-check';
import { MFA_KEY_SETTING, MfaKeys } from './mfa-keys';
import { UserTotp } from './user-totp.entity';

const REMEDY =
  'set it to the key the secrets were written with (or list that key in MFA_ENCRYPTION_PREVIOUS_KEYS), ' +
  "or reset the user's second factor: npm run cli -- users reset-mfa --email E";

/**
 * The stored TOTP secrets, read with MfaKeys: a secret an older key opened is re-encrypted under
 * the current one when read, and all of them at start (after the check that the newest opens).
 */
@Injectable()
export class TotpSecrets implements OnApplicationBootstrap {
  private readonly logger = new Logger(TotpSecrets.name);

  constructor(
    @InjectRepository(UserTotp) private readonly totps: Repository<UserTotp>,
    private readonly keys: MfaKeys,
  ) {}

  /** The plaintext secret; throws naming MFA_ENCRYPTION_KEY when no listed key opens it. */
  async secretOf(row: UserTotp): Promise<string> {
    const opened = this.keys.open(row.secretEncrypted);
    if (!opened)
      throw new StoredSecretUnreadableError(
        MFA_KEY_SETTING,
        `the stored TOTP secret of user ${row.userId}`,
        REMEDY,
      );
    if (opened.stale) await this.reseal(row, opened.plaintext);
    return opened.plaintext;
  }

  async onApplicationBootstrap(): Promise<void> {
    const report = await this.checkAndReencrypt();
    if (report.reencrypted > 0 || report.unreadable.length > 0)
      this.logger.warn(
        { ...report, unreadable: report.unreadable.slice(0, 20) },
        `TOTP secrets re-encrypted under ${MFA_KEY_SETTING}; unreadable ones need users reset-mfa`,
      );
  }

  /** The start-up check and migration (see StoredSecretUnreadableError). */
  async checkAndReencrypt(): Promise<ReencryptionReport> {
    const rows = await this.totps.find({ order: { createdAt: 'DESC' } });
    const report: ReencryptionReport = { checked: rows.length, reencrypted: 0, unreadable: [] };
    for (const [index, row] of rows.entries()) {
      const opened = this.keys.open(row.secretEncrypted);
      if (!opened && index === 0)
        throw new StoredSecretUnreadableError(
          MFA_KEY_SETTING,
          `the newest stored TOTP secret (user ${row.userId})`,
          REMEDY,
        );
      if (!opened) report.unreadable.push(row.userId);
      else if (opened.stale && (await this.reseal(row, opened.plaintext))) report.reencrypted += 1;
    }
    return report;
  }

  /** Re-encrypted under the current key, unless another replica (or a new setup) changed it. */
  private async reseal(row: UserTotp, plaintext: string): Promise<boolean> {
    const result = await this.totps.update(
      { userId: row.userId, secretEncrypted: row.secretEncrypted },
      { secretEncrypted: this.keys.encrypt(plaintext) },
    );
    return result.affected === 1;
  }
}
