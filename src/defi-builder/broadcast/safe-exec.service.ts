/**
 * What the relay checks of a Safe transaction beyond its shape (safe-exec.ts), against the
 * database and the chain, and how it reads why one fails:
 *
 * - the Safe is bound to the caller's account (as a wallet is bound: SIWE, ERC-1271 for a Safe);
 * - it is a Safe: its code is SafeProxy's, its singleton Safe 1.4.1's (SafeL2 or Safe), and it has
 *   no transaction guard (a guard runs code of its own around execTransaction);
 * - a batch that reverts inside the Safe comes back as GS013 without its reason: the batch is
 *   replayed as the Safe runs it (batchRevert), so the hook's SessionNotActive(safe) or a
 *   slippage reads as it would for an EOA.
 */
import { Inject, Injectable } from '@nestjs/common';
import { getAddress, keccak256 } from 'ethers';
import type { Principal } from '../../auth/principal';
import { loadOwnArtifact } from '../../chain/deployment/contract-artifacts';
import { ReturnDataError } from '../../chain/encoding/abi-words';
import { decodeAggregate3, encodeAggregate3 } from '../../chain/encoding/multicall';
import { DecodedRevert, decodeRevert } from '../../chain/encoding/revert-decoder';
import {
  SAFE_GUARD_STORAGE_SLOT,
  safeContractsFor,
  safeProxyCode,
} from '../../chain/safe/safe-contracts';
import { ApiError } from '../../common/errors/api-error';
import { WalletsService } from '../../compliance/wallets/wallets.service';
import { BlockTag, DEFI_CHAIN, DefiChain } from '../chain/defi-chain.port';
import type { SafeExec } from './safe-exec';

function notASafe(safe: string, reason: string): ApiError {
  return new ApiError(
    'BROADCAST_TARGET_NOT_ALLOWED',
    `The relay does not send this transaction: ${safe} ${reason}`,
    {
      hint: 'The relay sends execTransaction to a Safe v1.4.1 (SafeL2 or Safe singleton) without a transaction guard, bound to your account, carrying the safeTransaction of a build.',
      details: [{ field: 'signedTransaction', to: safe, selector: 'execTransaction', reason }],
    },
  );
}

@Injectable()
export class SafeExecChecks {
  constructor(
    @Inject(DEFI_CHAIN) private readonly chain: DefiChain,
    private readonly wallets: WalletsService,
  ) {}

  /** 403 unless bound to the caller's account; 400 BROADCAST_TARGET_NOT_ALLOWED unless a Safe. */
  async authorize(exec: SafeExec, principal: Principal | undefined): Promise<void> {
    if (!principal)
      throw new ApiError('INSTITUTION_OWNERSHIP_MISMATCH', `Safe ${exec.safe} is not bound`);
    await this.wallets.assertBoundTo(exec.safe, principal.accountId);
    const contracts = safeContractsFor(this.chain.network().chainId)!;
    const [code, singletonSlot, guardSlot] = await Promise.all([
      this.chain.code(exec.safe),
      this.chain.storageAt(exec.safe, '0x0'),
      this.chain.storageAt(exec.safe, SAFE_GUARD_STORAGE_SLOT),
    ]);
    if (code === '0x' || keccak256(code) !== safeProxyCode().runtimeCodeHash)
      throw notASafe(exec.safe, 'is not a Safe proxy (its code is not SafeProxy 1.4.1)');
    const singleton = getAddress(`0x${BigInt(singletonSlot).toString(16).padStart(40, '0')}`);
    if (singleton !== contracts.safeL2Singleton && singleton !== contracts.safeSingleton)
      throw notASafe(exec.safe, `runs singleton ${singleton}, not Safe ${contracts.version}`);
    if (BigInt(guardSlot) !== 0n)
      throw notASafe(exec.safe, 'has a transaction guard, whose code would run with the batch');
  }

  /**
   * Why the Safe's batch reverts at `block`: its calls replayed in the Safe's context (the Safe's
   * code replaced by Multicall3's for one eth_call: each call is then made by the Safe, in order,
   * each seeing the state the previous ones left, and the failing one's revert data comes back;
   * MultiSendCallOnly itself reverts with none). Null when no call reverts so, when a call sends
   * ETH (Multicall3's aggregate3 sends none), or when the node takes no state override: the
   * Safe's own refusal (GS013) then stands.
   */
  async batchRevert(exec: SafeExec, block: BlockTag): Promise<DecodedRevert | null> {
    if (exec.calls.some((call) => call.value !== 0n)) return null;
    const calls = exec.calls.map((call) => ({
      target: call.to,
      allowFailure: true,
      callData: call.data,
    }));
    try {
      const outcome = await this.chain.simulate(
        { from: exec.safe, to: exec.safe, data: encodeAggregate3(calls), value: 0n },
        block,
        { [exec.safe]: loadOwnArtifact('Multicall3').deployedBytecode! },
      );
      if (!outcome.ok || outcome.returnData === undefined) return null;
      const failed = decodeAggregate3(outcome.returnData).find((result) => !result.success);
      return failed ? decodeRevert(failed.returnData) : null;
    } catch (err) {
      if (err instanceof ApiError || err instanceof ReturnDataError) return null;
      throw err;
    }
  }
}
