import { INestApplicationContext } from '@nestjs/common';
import { ACCOUNT_NAME_MAX_LENGTH, PLANS, Plan } from '../accounts/account.entity';
import { AccountProvisioningService } from '../accounts/account-provisioning.service';
import { AccountsService } from '../accounts/accounts.service';
import { printableNameProblem } from '../common/validation/is-printable-name';
import { OPERATOR_ACTOR } from '../events/activity-event';
import { ActivityLog } from '../events/activity-log';
import { DataSource } from 'typeorm';
import { resetSecondFactor } from '../auth/mfa/mfa-reset';
import { UsersService } from '../auth/users/users.service';
import { CliUsageError, required } from './cli-usage';

export { parseFlags, splitCommand, USAGE } from './cli-usage';
import { runAttestCommand } from './attest-commands';
import { runCredentialCommand } from './credential-commands';
import { runIssuerCommand } from './issuer-commands';
import { listOperatorChanges } from '../audit/operator-audit';

export { CliUsageError };

function plan(value: string): Plan {
  if (!(PLANS as readonly string[]).includes(value))
    throw new CliUsageError(`--plan must be one of ${PLANS.join(', ')}`);
  return value as Plan;
}

/** The account's name as people will read it: the same rule as every name the API takes. */
function accountName(flags: Record<string, string>): string {
  const name = required(flags, 'name');
  if (name.length > ACCOUNT_NAME_MAX_LENGTH)
    throw new CliUsageError(`--name must have at most ${ACCOUNT_NAME_MAX_LENGTH} characters`);
  const problem = printableNameProblem('--name', name);
  if (problem) throw new CliUsageError(problem);
  return name;
}

/** A whole-number override flag; 0 removes the override (null). */
function override(flags: Record<string, string>, name: string): number | null {
  const text = required(flags, name);
  if (!/^\d{1,9}$/.test(text)) throw new CliUsageError(`--${name} must be a whole number`);
  return Number(text) === 0 ? null : Number(text);
}

/** Operator changes to an account's limits are audited as `account.plan_changed` (actor: operator). */
async function recordOperatorChange(
  app: INestApplicationContext,
  accountId: string,
  field: 'plan' | 'rateLimitPerMinute' | 'monthlyQuota',
  from: unknown,
  to: unknown,
): Promise<void> {
  await app.get(ActivityLog).record({
    accountId,
    type: 'account.plan_changed',
    actor: OPERATOR_ACTOR,
    target: { type: 'account', id: accountId },
    data: { field, from: from ?? null, to },
  });
}

/** Runs one operator command and returns the JSON it prints. */
export async function runCommand(
  app: INestApplicationContext,
  command: string,
  flags: Record<string, string>,
): Promise<Record<string, unknown>> {
  const provisioning = app.get(AccountProvisioningService);
  const accounts = app.get(AccountsService);
  switch (command) {
    case 'create-account': {
      const password = required(flags, 'password');
      if (password.length < 12)
        throw new CliUsageError('--password must have at least 12 characters');
      const input = {
        name: accountName(flags),
        email: required(flags, 'email'),
        plan: plan(flags.plan ?? 'free'),
      };
      const created = await provisioning.createAccountWithUser({ ...input, password });
      await app.get(ActivityLog).record({
        accountId: created.accountId,
        type: 'account.created',
        actor: OPERATOR_ACTOR,
        target: { type: 'account', id: created.accountId },
        data: { ...input, ownerUserId: created.userId },
      });
      return { ...created };
    }
    case 'set-plan': {
      const accountId = await provisioning.accountIdForEmail(required(flags, 'email'));
      const newPlan = plan(required(flags, 'plan'));
      const before = await accounts.findById(accountId);
      await accounts.setPlan(accountId, newPlan);
      await recordOperatorChange(app, accountId, 'plan', before?.plan, newPlan);
      return { accountId, plan: newPlan };
    }
    case 'set-rate-limit': {
      const accountId = await provisioning.accountIdForEmail(required(flags, 'email'));
      const perMinute = override(flags, 'per-minute');
      const before = await accounts.findById(accountId);
      await accounts.setRateLimitOverride(accountId, perMinute);
      await recordOperatorChange(
        app,
        accountId,
        'rateLimitPerMinute',
        before?.rateLimitPerMinute,
        perMinute,
      );
      return { accountId, rateLimitPerMinute: perMinute };
    }
    case 'set-quota': {
      const accountId = await provisioning.accountIdForEmail(required(flags, 'email'));
      const perMonth = override(flags, 'per-month');
      const before = await accounts.findById(accountId);
      await accounts.setMonthlyQuotaOverride(accountId, perMonth);
      await recordOperatorChange(app, accountId, 'monthlyQuota', before?.monthlyQuota, perMonth);
      return { accountId, monthlyQuota: perMonth };
    }
    case 'users reset-mfa': {
      const user = await app.get(UsersService).findByEmail(required(flags, 'email'));
      if (!user) throw new CliUsageError(`No user with email ${flags.email}`);
      return {
        ...(await resetSecondFactor(app.get(DataSource), app.get(ActivityLog), {
          userId: user.id,
          accountId: user.accountId,
        })),
      };
    }
    case 'audit list': {
      const limit = flags.limit === undefined ? 50 : Number(flags.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
        throw new CliUsageError('--limit must be a whole number from 1 to 1000');
      let since: Date | undefined;
      if (flags.since !== undefined) {
        since = new Date(/^\d+$/.test(flags.since) ? Number(flags.since) * 1000 : flags.since);
        if (Number.isNaN(since.getTime()))
          throw new CliUsageError('--since must be unix seconds or an ISO 8601 date');
      }
      const items = await listOperatorChanges(app.get(DataSource), {
        type: flags.type,
        since,
        limit,
      });
      return { items };
    }
    default: {
      const result =
        (await runCredentialCommand(app, command, flags)) ??
        ((await runAttestCommand(app, command, flags)) as Record<string, unknown> | undefined) ??
        (await runIssuerCommand(app, command, flags));
      if (result === undefined) throw new CliUsageError(`Unknown command: ${command}`);
      return result;
    }
  }
}
