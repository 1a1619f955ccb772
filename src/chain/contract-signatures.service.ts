/**
 * ERC-1271 (https://eips.ethereum.org/EIPS/eip-1271): does a contract account accept a signature
 * over a 32-byte hash? One eth_call of `isValidSignature(bytes32, bytes)` at the latest block,
 * against the account's current state: a Safe checks the signatures against its owners and
 * threshold of that moment (CompatibilityFallbackHandler -> Safe.checkSignatures).
 */
import { Injectable } from '@nestjs/common';
import { ERC1271, ERC1271_MAGIC_VALUE } from './abi/safe';
import { ChainRevertError, ChainRpcService } from './chain-rpc.service';

@Injectable()
export class ContractSignatures {
  constructor(private readonly rpc: ChainRpcService) {}

  /**
   * true only for the magic value 0x1626ba7e; a revert (a Safe refuses too few or foreign
   * signatures with GS0xx), an empty answer (no code: an EOA) or any other answer is false. An
   * unreachable chain is 503 CHAIN_UNAVAILABLE (the chain layer's ApiError).
   */
  async accepts(address: string, hash: string, signature: string): Promise<boolean> {
    let answer: string;
    try {
      answer = await this.rpc.call({
        to: address,
        data: ERC1271.encodeFunctionData('isValidSignature', [hash, signature]),
      });
    } catch (err) {
      if (err instanceof ChainRevertError) return false;
      throw err;
    }
    return answer.length === 66 && answer.slice(0, 10).toLowerCase() === ERC1271_MAGIC_VALUE;
  }
}
