import { Injectable } from '@nestjs/common';
import { ItemBackoff } from '../../common/scheduling/item-backoff';
import { PeriodicScan } from '../../common/scheduling/periodic-scan';
import { TradeAuthorizer } from '../onchain/trade-authorizer.service';
import { TradeLedgerService } from './trade-ledger.service';
import type { TradeReservation } from './trade-reservation.entity';

/** How often each instance settles reservations past their deadline. */
export const TRADE_SWEEP_INTERVAL_MS = 60_000;
const BATCH = 200;

/**
 * Reservations past their deadline, settled (issue 54): one with an authorization is mined when
 * the hook has seen its nonce used (a trade sent around the relay counts too; counted as mined at
 * its deadline, the latest it can have been), else expired; one without (service mode) expires:
 * the relay watcher marks the ones it saw mined first. Until settled, an on-chain reservation
 * keeps counting (TradeLedgerService.used), so a slow or failing sweep never frees a limit early.
 * Every instance sweeps; settling is conditional on the row still being reserved.
 */
@Injectable()
export class TradeReservationSweep extends PeriodicScan {
  private readonly backoff = new ItemBackoff(TRADE_SWEEP_INTERVAL_MS, 15 * 60_000);

  constructor(
    private readonly ledger: TradeLedgerService,
    private readonly authorizer: TradeAuthorizer,
  ) {
    super(TRADE_SWEEP_INTERVAL_MS);
  }

  protected async scan(): Promise<number> {
    const due = await this.ledger.due(BATCH);
    const builds = new Map<string, TradeReservation[]>();
    for (const row of due) builds.set(row.buildId, [...(builds.get(row.buildId) ?? []), row]);
    return this.eachReady(
      [...builds.values()],
      {
        backoff: this.backoff,
        limit: BATCH,
        keyOf: (rows) => rows[0].buildId,
        describe: (rows) => ({ buildId: rows[0].buildId, accountId: rows[0].accountId }),
        failure: 'Trade reservation not settled; retrying later',
      },
      (rows) => this.settle(rows),
    );
  }

  private async settle(rows: TradeReservation[]): Promise<boolean> {
    const [first] = rows;
    const ids = rows.map((r) => r.id);
    const used = first.nonce !== null && (await this.authorizer.isUsed(first.wallet, first.nonce));
    if (used) await this.ledger.settle(ids, 'mined', first.deadline * 1000);
    else await this.ledger.settle(ids, 'expired');
    return true;
  }
}
