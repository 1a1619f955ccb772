import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { JwtSecret } from '../auth/tokens/jwt-secret';
import { keyMaterials, Opened, openWithAny } from '../common/crypto/keyring';
import {
  ReencryptionReport,
  StoredSecretUnreadableError,
} from '../common/crypto/stored-secrets-check';
import { WebhooksConfig } from '../config/webhooks.config';
import { SecretBox } from './secret-box';
import { WebhookEndpoint } from './webhook-endpoint.entity';

/** The setting an operator fixes when a stored signing secret cannot be read. */
export const WEBHOOK_KEY_SETTING = 'WEBHOOK_SECRETS_KEY';

const REMEDY =
  'set it to the key the secrets were written with (or list that key in WEBHOOK_SECRETS_PREVIOUS_KEYS)';

/**
 * Seals new signing secrets under WEBHOOK_SECRETS_KEY (required in production; elsewhere, when
 * unset, the JWT secret) and opens stored ones with it or an older key: WEBHOOK_SECRETS_PREVIOUS_KEYS,
 * or the JWT secrets (current and JWT_PREVIOUS_SECRETS), under which releases before
 * WEBHOOK_SECRETS_KEY was required kept them. At start, the newest endpoint's secret must open (or
 * the service refuses to start, naming the setting) and every secret an older key opened is
 * re-encrypted under the current one.
 */
@Injectable()
export class WebhookSecrets implements OnApplicationBootstrap {
  private readonly logger = new Logger(WebhookSecrets.name);
  private readonly boxes: SecretBox[];

  constructor(
    jwtSecret: JwtSecret,
    config: WebhooksConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    this.boxes = keyMaterials(
      config.secretsKey ?? jwtSecret.value,
      ...config.secretsPreviousKeys,
      jwtSecret.value,
      ...jwtSecret.previous,
    ).map((material) => new SecretBox(material));
  }

  seal(secret: string): string {
    return this.boxes[0].seal(secret);
  }

  /** The secret, and whether an older key opened it; undefined when no listed key does. */
  open(sealed: string): Opened | undefined {
    return openWithAny(this.boxes, (box) => box.open(sealed));
  }

  /**
   * The secrets that sign a delivery now: the current one, and the previous within its 24 h when
   * it can be read (an unreadable previous secret is left out, never a reason not to send).
   */
  signingSecrets(endpoint: WebhookEndpoint, now = Date.now()): string[] {
    const current = this.open(endpoint.secretSealed);
    if (!current)
      throw new StoredSecretUnreadableError(
        WEBHOOK_KEY_SETTING,
        `the signing secret of webhook ${endpoint.id}`,
        `${REMEDY}, or rotate its secret (POST /api/v1/webhooks/${endpoint.id}/rotate-secret)`,
      );
    const secrets = [current.plaintext];
    const previous =
      endpoint.previousSecretSealed &&
      endpoint.previousSecretUntil !== null &&
      endpoint.previousSecretUntil > now
        ? this.open(endpoint.previousSecretSealed)
        : undefined;
    if (previous) secrets.push(previous.plaintext);
    return secrets;
  }

  async onApplicationBootstrap(): Promise<void> {
    const report = await this.checkAndReencrypt();
    if (report.reencrypted > 0 || report.unreadable.length > 0)
      this.logger.warn(
        { ...report, unreadable: report.unreadable.slice(0, 20) },
        `Webhook signing secrets re-encrypted under ${WEBHOOK_KEY_SETTING}; unreadable ones need rotate-secret`,
      );
  }

  /** The start-up check and migration; an unreadable previous secret is dropped. */
  async checkAndReencrypt(): Promise<ReencryptionReport> {
    const endpoints = this.dataSource.getRepository(WebhookEndpoint);
    const rows = await endpoints.find({ order: { createdAt: 'DESC' } });
    const report: ReencryptionReport = { checked: rows.length, reencrypted: 0, unreadable: [] };
    for (const [index, row] of rows.entries()) {
      const current = this.open(row.secretSealed);
      if (!current && index === 0)
        throw new StoredSecretUnreadableError(
          WEBHOOK_KEY_SETTING,
          `the newest stored webhook signing secret (webhook ${row.id})`,
          REMEDY,
        );
      if (!current) report.unreadable.push(row.id);
      const previous = row.previousSecretSealed ? this.open(row.previousSecretSealed) : undefined;
      const change: Partial<WebhookEndpoint> = {};
      if (current?.stale) change.secretSealed = this.seal(current.plaintext);
      if (row.previousSecretSealed && !previous) {
        change.previousSecretSealed = null;
        change.previousSecretUntil = null;
      } else if (previous?.stale) change.previousSecretSealed = this.seal(previous.plaintext);
      if (Object.keys(change).length === 0) continue;
      // Unless another replica (or a rotation) changed it meanwhile.
      const result = await endpoints.update({ id: row.id, secretSealed: row.secretSealed }, change);
      if (result.affected === 1) report.reencrypted += 1;
    }
    return report;
  }
}
