import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from '../config/app.config';
import { DatabaseConfig } from '../config/database.config';
import { AccountProvisioningService } from './account-provisioning.service';
import { AccountsService } from './accounts.service';
import { jsonLine } from '../common/logging/boot-logger';

export const DEMO_EMAIL = 'demo@example.com';

/**
 * On the embedded default only (SQLite, demo mode), the first start creates a demo account so a
 * developer can log in at once. The password is random, printed once to the console (not to the
 * structured log) and kept in DATA_DIR/demo-credentials.json with owner-only permissions.
 */
@Injectable()
export class DemoAccountSeeder implements OnApplicationBootstrap {
  private readonly logger = new Logger(DemoAccountSeeder.name);

  constructor(
    private readonly app: AppConfig,
    private readonly database: DatabaseConfig,
    private readonly accounts: AccountsService,
    private readonly provisioning: AccountProvisioningService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.app.seedDemoAccount || this.app.mode !== 'demo' || this.database.type !== 'sqlite')
      return;
    if ((await this.accounts.count()) > 0) return;
    const password = randomBytes(12).toString('base64url');
    const ids = await this.provisioning.createAccountWithUser({
      name: 'Demo institution',
      email: DEMO_EMAIL,
      password,
      plan: 'pro',
    });
    const file = join(this.app.dataDir, 'demo-credentials.json');
    writeFileSync(file, JSON.stringify({ email: DEMO_EMAIL, password, ...ids }, null, 2), {
      mode: 0o600,
    });
    const login =
      `\n  Demo account created (first start only):\n    email:    ${DEMO_EMAIL}\n    password: ${password}\n` +
      `  Also saved in ${file}\n\n`;
    this.logger.log({ file, accountId: ids.accountId }, 'Seeded the demo account');
    // Printed whatever LOG_LEVEL says; in JSON format as a JSON line, so every line of a start is.
    process.stdout.write(
      this.app.logFormat === 'json'
        ? jsonLine(30, { event: 'demo.account', file }, login.trim())
        : login,
    );
  }
}
