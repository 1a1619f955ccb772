import { INestApplication, ModuleMetadata, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Server } from 'node:http';
import { AppModule } from '../../src/app.module';
import { configureApp } from '../../src/bootstrap/configure-app';
import { ExpressHttpAdapter } from '../../src/bootstrap/http-adapter';
import { validateConfiguration } from '../../src/config';
import { AccountProvisioningService } from '../../src/accounts/account-provisioning.service';
import { Plan } from '../../src/accounts/account.entity';
import { createTestDatabase, TestDatabase, withEnv } from './test-env';

export interface TestApp {
  app: INestApplication;
  server: Server;
  db: TestDatabase;
  /** Creates an account with one user; the password is fixed for tests. */
  createAccount(opts?: { email?: string; plan?: Plan; name?: string }): Promise<TestAccount>;
  close(): Promise<void>;
}

export interface TestAccount {
  accountId: string;
  userId: string;
  email: string;
  password: string;
}

export interface TestAppOptions {
  /** Extra environment for this app only (e.g. REDIS_URL, CHAIN_RPC_URL). */
  env?: Record<string, string | undefined>;
  /** Reuse a database (e.g. two instances sharing one); default: a fresh one per app. */
  db?: TestDatabase;
  /** Test-only controllers/providers mounted beside the app (e.g. error probes). */
  extra?: Pick<ModuleMetadata, 'controllers' | 'providers' | 'imports'>;
  /** Listen on an ephemeral port (needed to test shutdown); default false. */
  listen?: boolean;
  /** Provider overrides (edges we do not own only). */
  overrides?: Array<{ provide: Type<unknown> | string | symbol; useValue: unknown }>;
}

export const TEST_PASSWORD = 'correct horse battery staple';
let emailCounter = 0;

/** Boots the whole app, with main.ts's request pipeline, on a fresh database. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const db = options.db ?? (await createTestDatabase());
  const env = {
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SEED_DEMO_ACCOUNT: 'false',
    // The receipts' chain watch reads blocks on a timer while builds wait for their transaction:
    // off unless a suite turns it on, so suites that count JSON-RPC calls count only theirs.
    RECEIPT_WATCH_INTERVAL_MS: '0',
    // The suites read readiness's component details on the API port; the default (off: only
    // `status` and `reason`) is asserted by test/health/readiness-details.e2e-spec.ts.
    HEALTH_DETAILS: 'true',
    ...db.env,
    ...options.env,
  };
  const app = await withEnv(env, async () => {
    try {
      return await bootApp(options);
    } catch (err) {
      if (!options.db) await db.drop();
      throw err;
    }
  });

  let closed = false;
  return {
    app,
    server: app.getHttpServer() as Server,
    db,
    async createAccount(opts = {}) {
      emailCounter += 1;
      const email = opts.email ?? `user${emailCounter}-${Date.now()}@example.com`;
      const ids = await app.get(AccountProvisioningService).createAccountWithUser({
        name: opts.name ?? `Account ${emailCounter}`,
        email,
        password: TEST_PASSWORD,
        plan: opts.plan,
      });
      return { ...ids, email, password: TEST_PASSWORD };
    },
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      if (!options.db) await db.drop();
    },
  };
}

async function bootApp(options: TestAppOptions): Promise<INestApplication> {
  validateConfiguration();
  let builder = Test.createTestingModule({
    imports: [AppModule, ...(options.extra?.imports ?? [])],
    controllers: options.extra?.controllers ?? [],
    providers: options.extra?.providers ?? [],
  });
  for (const o of options.overrides ?? [])
    builder = builder.overrideProvider(o.provide).useValue(o.useValue);
  const moduleRef = await builder.compile();
  const nest = moduleRef.createNestApplication(new ExpressHttpAdapter(), {
    bodyParser: false,
    bufferLogs: true,
  });
  try {
    configureApp(nest);
    if (options.listen) await nest.listen(0, '127.0.0.1');
    else await nest.init();
    return nest;
  } catch (err) {
    await nest.close().catch(() => undefined);
    throw err;
  }
}
