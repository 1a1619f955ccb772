import { Inject, Injectable } from '@nestjs/common';
import { JwtSecret } from '../auth/tokens/jwt-secret';
import { webhooksConfig, WebhooksConfig } from '../config/webhooks.config';
import { SecretBox } from './secret-box';
import type { WebhookEndpoint } from './webhook-endpoint.entity';

/** Seals new signing secrets and opens an endpoint's current (and, after a rotation, previous) one. */
@Injectable()
export class WebhookSecrets {
  private readonly box: SecretBox;

  constructor(jwtSecret: JwtSecret, @Inject(webhooksConfig.KEY) config: WebhooksConfig) {
    this.box = new SecretBox(config.secretsKey ?? jwtSecret.value);
  }

  seal(secret: string): string {
    return this.box.seal(secret);
  }

  /** The secrets that sign a delivery now: the current one, and the previous within its 24 h. */
  signingSecrets(endpoint: WebhookEndpoint, now = Date.now()): string[] {
    const secrets = [this.box.open(endpoint.secretSealed)];
    if (
      endpoint.previousSecretSealed &&
      endpoint.previousSecretUntil !== null &&
      endpoint.previousSecretUntil > now
    )
      secrets.push(this.box.open(endpoint.previousSecretSealed));
    return secrets;
  }
}
