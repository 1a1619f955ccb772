import { Logger } from '@nestjs/common';
import { formatEther } from 'ethers';

/**
 * Remembers which side of the low-balance threshold the attester was last seen on, so a crossing
 * is logged once (and a refill once), not on every activation or readiness probe.
 */
export class BalanceWatch {
  private low: boolean | null = null;

  constructor(
    private readonly address: string,
    private readonly thresholdWei: bigint,
    private readonly logger: Logger,
  ) {}

  get lowBalance(): boolean {
    return this.low === true;
  }

  observe(balanceWei: bigint): boolean {
    const low = balanceWei < this.thresholdWei;
    if (low !== this.low) {
      const facts = {
        event: low ? 'attester.balance.low' : 'attester.balance.ok',
        address: this.address,
        balanceEth: formatEther(balanceWei),
        thresholdEth: formatEther(this.thresholdWei),
      };
      if (low)
        this.logger.warn(
          facts,
          'attester balance below ATTESTER_LOW_BALANCE_ETH: fund it before activations fail',
        );
      else if (this.low === true) this.logger.log(facts, 'attester balance back above threshold');
      this.low = low;
    }
    return low;
  }
}
