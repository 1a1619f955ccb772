import { Injectable } from '@nestjs/common';
import { getAddress } from 'ethers';
import { COMPLIANCE_HOOK_V3 } from '../../chain/abi/compliance-hook-v3';
import { ChainRpcService } from '../../chain/chain-rpc.service';
import { NetworkService } from '../../chain/network/network.service';
import { AttesterService } from '../../compliance/sessions/attester.service';

/** Wallets per setRequired transaction (one transaction stays well under a block's gas). */
const WALLETS_PER_TRANSACTION = 100;

/**
 * Hook v3's per-wallet flag "requires an authorization" (issue 54): set by the service's attester,
 * which the deployment makes the hook's enforcer, when an account's policy turns on-chain
 * enforcement on or off and when a wallet binds to such an account. Sent with the attester's
 * signer, fees, nonce queue and standby (AttesterService.sendAsAttester); mined before it returns.
 * On a network whose hook is not v3 there is no flag: setRequired does nothing, isRequired is false.
 */
@Injectable()
export class TradeEnforcement {
  constructor(
    private readonly network: NetworkService,
    private readonly attester: AttesterService,
    private readonly rpc: ChainRpcService,
  ) {}

  get enabled(): boolean {
    return this.network.definition.hookVersion === 3;
  }

  /** Sets the flag of every wallet (checksummed or not) to `required`; waits until mined. */
  async setRequired(wallets: string[], required: boolean): Promise<void> {
    if (!this.enabled || wallets.length === 0) return;
    const unique = [...new Set(wallets.map((w) => getAddress(w.toLowerCase())))];
    for (let i = 0; i < unique.length; i += WALLETS_PER_TRANSACTION) {
      const chunk = unique.slice(i, i + WALLETS_PER_TRANSACTION);
      await this.attester.sendAsAttester(
        this.network.contracts.complianceHook,
        COMPLIANCE_HOOK_V3.encodeFunctionData('setRequired', [chunk, required]),
      );
    }
  }

  /** The hook's flag for `wallet` (false when the hook is not v3). */
  async isRequired(wallet: string): Promise<boolean> {
    if (!this.enabled) return false;
    const raw = await this.rpc.call({
      to: this.network.contracts.complianceHook,
      data: COMPLIANCE_HOOK_V3.encodeFunctionData('requiresAuthorization', [wallet]),
    });
    return BigInt(raw) !== 0n;
  }
}
