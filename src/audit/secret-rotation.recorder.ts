import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHmac } from 'node:crypto';
import { DataSource } from 'typeorm';
import { withAdvisoryLock } from '../common/database/advisory-lock';
import { AuthConfig } from '../config/auth.config';
import { SecurityConfig } from '../config/security.config';
import { WebhooksConfig } from '../config/webhooks.config';
import { SYSTEM_ACTOR } from '../events/activity-event';
import { recordOperatorChange } from './operator-audit';
import { OperatorEvent } from './operator-event.entity';

/**
 * A fingerprint that names a secret's value without revealing it: HMAC-SHA256 keyed with a fixed
 * label over the setting's name and value, 16 hex characters (the secrets are 48+ random
 * characters: nothing can be guessed back from 64 bits of it).
 */
export function secretFingerprint(name: string, value: string): string {
  return createHmac('sha256', 'cgk secret fingerprint')
    .update(`${name}\0${value}`)
    .digest('hex')
    .slice(0, 16);
}

/**
 * Secret rotations on the record (issue 58): the secrets are edited in the env file
 * (scripts/ops/rotate-env-secret.sh, docs/operators/secrets-and-keys.md), outside any command
 * that could write the audit; so the first instance that starts on a new value records
 * `secret.rotated` in the operator audit (`npm run cli -- audit list`), with the new and previous
 * fingerprints, never the value. Its actor is the system: the service noticed the change, it
 * cannot know who made it. Once per value across replicas (a lock, then the last record read).
 */
@Injectable()
export class SecretRotationRecorder implements OnApplicationBootstrap {
  private readonly logger = new Logger('SecretRotation');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly auth: AuthConfig,
    private readonly security: SecurityConfig,
    private readonly webhooks: WebhooksConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const secrets: Array<[string, string | undefined]> = [
      ['JWT_SECRET', this.auth.jwtSecret],
      ['MFA_ENCRYPTION_KEY', this.security.mfaEncryptionKey],
      ['WEBHOOK_SECRETS_KEY', this.webhooks.secretsKey],
    ];
    try {
      await withAdvisoryLock(
        this.dataSource,
        'secret-rotations',
        async () => {
          for (const [name, value] of secrets) if (value) await this.compare(name, value);
        },
        undefined,
      );
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'secret rotations not checked');
    }
  }

  private async compare(name: string, value: string): Promise<void> {
    const fingerprint = secretFingerprint(name, value);
    const last = await this.dataSource.getRepository(OperatorEvent).findOne({
      where: { type: 'secret.rotated', targetType: 'secret', targetId: name },
      order: { seq: 'DESC' },
    });
    const previous = (last?.data?.fingerprint as string | undefined) ?? null;
    if (previous === fingerprint) return;
    await recordOperatorChange(this.dataSource, {
      type: 'secret.rotated',
      target: { type: 'secret', id: name },
      data: { fingerprint, previousFingerprint: previous, noticed: 'at start' },
      actor: SYSTEM_ACTOR,
    });
    if (previous)
      this.logger.log(
        { event: 'secret.rotated', name, fingerprint, previousFingerprint: previous },
        `${name} was rotated: recorded in the operator audit`,
      );
  }
}
