import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AccountsService } from '../../src/accounts/accounts.service';
import { AuditEventsService } from '../../src/audit/audit-events.service';
import { CliModule } from '../../src/cli/cli.module';
import { CliUsageError, parseFlags, runCommand } from '../../src/cli/cli-commands';
import { createTestDatabase, TestDatabase, withEnv } from '../helpers/test-env';
import { OPERATOR_ACTOR } from '../../src/events/activity-event';

describe('Operator CLI', () => {
  let db: TestDatabase;
  let cli: INestApplicationContext;

  beforeAll(async () => {
    db = await createTestDatabase();
    cli = await withEnv({ ...db.env, LOG_LEVEL: 'silent' }, () =>
      NestFactory.createApplicationContext(CliModule, { logger: false }),
    );
  });
  afterAll(async () => {
    await cli.close();
    await db.drop();
  });

  const run = (line: string) => {
    const [command, ...args] = line.match(/'[^']*'|\S+/g)!.map((a) => a.replace(/^'|'$/g, ''));
    return runCommand(cli, command, parseFlags(args));
  };

  it('creates an account with its first user, then changes plan and override', async () => {
    const created = await run(
      "create-account --name Acme --email Ops@Acme.test --password 'a long password!' --plan pro",
    );
    expect(created).toEqual({ accountId: expect.any(String), userId: expect.any(String) });
    const accounts = cli.get(AccountsService);
    expect(await accounts.findById(created.accountId as string)).toMatchObject({
      name: 'Acme',
      plan: 'pro',
    });

    await expect(run('set-plan --email ops@acme.test --plan enterprise')).resolves.toEqual({
      accountId: created.accountId,
      plan: 'enterprise',
    });
    await run('set-rate-limit --email ops@acme.test --per-minute 5');
    expect(await accounts.findById(created.accountId as string)).toMatchObject({
      plan: 'enterprise',
      rateLimitPerMinute: 5,
    });
    await run('set-rate-limit --email ops@acme.test --per-minute 0');
    expect((await accounts.findById(created.accountId as string))?.rateLimitPerMinute).toBeNull();
    expect(await run('set-quota --email ops@acme.test --per-month 50000')).toEqual({
      accountId: created.accountId,
      monthlyQuota: 50_000,
    });
    expect((await accounts.findById(created.accountId as string))?.monthlyQuota).toBe(50_000);
    await run('set-quota --email ops@acme.test --per-month 0');
    expect((await accounts.findById(created.accountId as string))?.monthlyQuota).toBeNull();
    await expect(run('set-quota --email ops@acme.test --per-month lots')).rejects.toThrow(
      /--per-month must be a whole number/,
    );
  });

  it('audits create-account as account.created by the operator (name, email, plan; no password)', async () => {
    const created = await run(
      "create-account --name Audited --email audited@acme.test --password 'a long password!'",
    );
    const trail = await cli
      .get(AuditEventsService)
      .listForAccount(created.accountId as string, { type: 'account.created' });
    expect(trail.items).toHaveLength(1);
    expect(trail.items[0]).toMatchObject({
      type: 'account.created',
      actor: OPERATOR_ACTOR,
      target: { type: 'account', id: created.accountId },
      data: {
        name: 'Audited',
        email: 'audited@acme.test',
        plan: 'free',
        ownerUserId: created.userId,
      },
    });
    expect(JSON.stringify(trail.items)).not.toContain('a long password!');
  });

  it('refuses bad input with a usage error and no change', async () => {
    await expect(run('create-account --name X --email x@y.z --password short')).rejects.toThrow(
      CliUsageError,
    );
    await expect(
      run("create-account --name X --email x@y.z --password 'long enough pw' --plan gold"),
    ).rejects.toThrow(/--plan must be one of free, pro, enterprise/);
    await expect(run('set-rate-limit --email nobody@x.y --per-minute 5')).rejects.toThrow(
      /No user with email/,
    );
    await expect(run('frobnicate --x y')).rejects.toThrow(/Unknown command/);
    expect(() => parseFlags(['--name'])).toThrow(CliUsageError);
  });

  it('refuses a second user with the same email', async () => {
    await run("create-account --name A --email dup@x.test --password 'long enough pw'");
    await expect(
      run("create-account --name B --email DUP@x.test --password 'long enough pw'"),
    ).rejects.toThrow(/already exists/);
  });
});
