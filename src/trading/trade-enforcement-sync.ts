import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { getAddress } from 'ethers';
import { CompliancePolicyService } from '../compliance/policy/compliance-policy.service';
import type { TradingRules } from '../compliance/policy/trading-rules';
import { WalletsService } from '../compliance/wallets/wallets.service';
import { ActivityLog } from '../events/activity-log';
import type { RecordedActivity } from '../events/activity-event';
import { TradeLedgerService } from './ledger/trade-ledger.service';
import { TradeEnforcement } from './onchain/trade-enforcement.service';

const onchain = (trading: TradingRules | undefined | null) => trading?.enforcement === 'onchain';

/**
 * Which wallets hook v3 asks an authorization of (issue 54): the wallets of accounts whose policy
 * enforces on chain. Set (1) before a build of such an account's wallet is answered (the hook's
 * flag is read once per wallet and instance, then remembered), so every wallet that got an
 * authorized build is held to it; (2) when the policy turns on chain enforcement on or off (the
 * account's bound wallets and the wallets its ledger knows), and (3) when a wallet is bound to
 * such an account, both after the change that caused them, from the activity log. (2) and (3)
 * are best effort (logged when the chain refuses); (1) is not: a build waits for its flag.
 */
@Injectable()
export class TradeEnforcementSync implements OnModuleInit {
  private readonly logger = new Logger(TradeEnforcementSync.name);
  private readonly flagged = new Set<string>();

  constructor(
    private readonly enforcement: TradeEnforcement,
    private readonly activity: ActivityLog,
    private readonly policy: CompliancePolicyService,
    private readonly wallets: WalletsService,
    private readonly ledger: TradeLedgerService,
  ) {}

  onModuleInit(): void {
    this.activity.addSink({
      name: 'trade-enforcement',
      // After the caller's transaction: the chain is not written from inside one.
      write: (event) => {
        setImmediate(() => void this.follow(event));
        return Promise.resolve();
      },
    });
  }

  /** The wallet's flag is set (on chain), before its build is answered. */
  async ensure(wallet: string): Promise<void> {
    if (!this.enforcement.enabled || this.flagged.has(wallet)) return;
    if (!(await this.enforcement.isRequired(wallet)))
      await this.enforcement.setRequired([wallet], true);
    this.flagged.add(wallet);
  }

  private async follow(event: RecordedActivity): Promise<void> {
    try {
      if (event.type === 'compliance.policy_updated') {
        const data = event.data as {
          from?: { trading?: TradingRules };
          to?: { trading?: TradingRules };
        };
        const [was, is] = [onchain(data.from?.trading), onchain(data.to?.trading)];
        if (was !== is) await this.setAccount(event.accountId!, is);
      } else if (event.type === 'wallet.bound' || event.type === 'wallet.rebound') {
        const rules = await this.policy.rulesOf(event.accountId!);
        if (onchain(rules.trading)) await this.set([event.target!.id], true);
      }
    } catch (error) {
      this.logger.warn(
        { err: (error as Error).message, type: event.type, accountId: event.accountId },
        'Hook v3 enforcement flag not updated',
      );
    }
  }

  private async setAccount(accountId: string, required: boolean): Promise<void> {
    const bound = (await this.wallets.listForAccount(accountId)).map((w) => w.address);
    await this.set([...bound, ...(await this.ledger.walletsOf(accountId))], required);
  }

  private async set(wallets: string[], required: boolean): Promise<void> {
    const unique = [...new Set(wallets.map((w) => getAddress(w.toLowerCase())))];
    if (unique.length === 0 || !this.enforcement.enabled) return;
    await this.enforcement.setRequired(unique, required);
    for (const wallet of unique) {
      if (required) this.flagged.add(wallet);
      else this.flagged.delete(wallet);
    }
  }
}
