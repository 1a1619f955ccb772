/**
 * A compliance receipt's simulation (issue 56), pure: the eth_call that runs a build's calls from
 * the wallet against one block and answers the wallet's balances after them.
 *
 * Method: `eth_call` with a state override (its third parameter, `{ [wallet]: { code } }`) that
 * puts WalletSimulator's runtime code at the wallet's own address, called from the wallet to
 * itself. Base's nodes (op-geth, reth) and Hardhat 2.29's EDR, the embedded devnet, all serve it;
 * EDR answers `eth_simulateV1` with "Method eth_simulateV1 is not supported", so the one method
 * both run is this one. The code override keeps the wallet an EOA in all that matters to our
 * calls (see the contract: Permit2 signatures, ETH and NFT receipts).
 *
 * Encoded by hand (abi-words.ts) like the other calldata of the build path; the spec compares it
 * with ethers' AbiCoder over random inputs.
 */
import { loadOwnArtifact } from '../deployment/contract-artifacts';
import { selectorOf } from '../abi/selectors';
import { WALLET_SIMULATOR } from '../abi/wallet-simulator';
import {
  addressWord,
  encodedBytesBody,
  encodeParts,
  hexData,
  ReturnDataError,
  sizeWord,
  uintWord,
} from '../encoding/abi-words';

export interface SimulatedCall {
  to: string;
  data: string;
  value: bigint;
}

/** What to run: the wallet, its calls in order, and the tokens to read after (zero address: ETH). */
export interface WalletSimulationRequest {
  wallet: string;
  calls: readonly SimulatedCall[];
  tokens: readonly string[];
}

/** The eth_call's three parameters, ready for JSON-RPC. */
export interface WalletSimulationCall {
  tx: { from: string; to: string; data: string };
  stateOverride: Record<string, { code: string }>;
}

const SIMULATE = selectorOf(WALLET_SIMULATOR, 'simulate');
const CALL_REVERTED = WALLET_SIMULATOR.getError('CallReverted')!.selector;
const WORD_HEX = 64;

let runtimeCode: string | undefined;
/** WalletSimulator's runtime code, read once from its committed artifact. */
export function walletSimulatorCode(): string {
  runtimeCode ??= loadOwnArtifact('WalletSimulator').deployedBytecode!;
  return runtimeCode;
}

/** simulate((address,uint256,bytes)[] calls, address[] tokens) calldata. */
export function encodeSimulateCalldata(
  calls: readonly SimulatedCall[],
  tokens: readonly string[],
): string {
  const callsBody =
    sizeWord(calls.length) +
    encodeParts(
      calls.map((call) => ({
        tail: encodeParts([
          addressWord(call.to),
          uintWord(call.value),
          { tail: encodedBytesBody(hexData(call.data)) },
        ]),
      })),
    );
  const tokensBody = sizeWord(tokens.length) + tokens.map(addressWord).join('');
  return `${SIMULATE}${encodeParts([{ tail: callsBody }, { tail: tokensBody }])}`;
}

export function walletSimulationCall(request: WalletSimulationRequest): WalletSimulationCall {
  const wallet = request.wallet.toLowerCase();
  return {
    tx: { from: wallet, to: wallet, data: encodeSimulateCalldata(request.calls, request.tokens) },
    stateOverride: { [wallet]: { code: walletSimulatorCode() } },
  };
}

export interface SimulationReturn {
  balancesAfter: bigint[];
  gasUsed: bigint[];
}

/** Decodes simulate's (uint256[] balancesAfter, uint256[] gasUsed); ReturnDataError when malformed. */
export function decodeSimulateResult(raw: string): SimulationReturn {
  const body = raw.startsWith('0x') ? raw.slice(2) : raw;
  const word = (at: number): bigint => {
    if ((at + 1) * WORD_HEX > body.length)
      throw new ReturnDataError('simulate result is truncated');
    return BigInt(`0x${body.slice(at * WORD_HEX, (at + 1) * WORD_HEX)}`);
  };
  const array = (offsetWord: number): bigint[] => {
    const offset = word(offsetWord);
    if (offset % 32n !== 0n) throw new ReturnDataError('simulate result is malformed');
    const start = Number(offset / 32n);
    const count = Number(word(start));
    if (count > body.length / WORD_HEX) throw new ReturnDataError('simulate result is malformed');
    return Array.from({ length: count }, (_, i) => word(start + 1 + i));
  };
  return { balancesAfter: array(0), gasUsed: array(1) };
}

/**
 * The revert data of a simulation that reverted: CallReverted(index, reason) names the call and
 * carries its own revert data; null for anything else (e.g. NotSelf, or the node's own data).
 */
export function callRevertOf(revertData: string): { index: number; reason: string } | null {
  if (!revertData.toLowerCase().startsWith(CALL_REVERTED)) return null;
  try {
    const [index, reason] = WALLET_SIMULATOR.decodeErrorResult('CallReverted', revertData);
    return { index: Number(index as bigint), reason: reason as string };
  } catch {
    return null;
  }
}

/**
 * The simulator's own opcodes between its two GAS readings besides the CALL (pushing the CALL's
 * arguments, the GAS opcodes): fixed by its bytecode. Measured: with it, the simulated gas of the
 * devnet's swaps and mints equals their mined gasUsed (test/receipts/receipts-lifecycle.e2e-spec.ts).
 */
export const SIMULATOR_OPCODES_GAS = 35n;

/**
 * The gas a call would use as a transaction's own execution, from what the simulator measured
 * around its CALL: plus the transaction's intrinsic gas (21,000 and its calldata, EIP-2028), less
 * what the CALL itself costs that a transaction does not pay (the warm target, 100; with value,
 * the 9,000 transfer less the 2,300 stipend handed back) and the simulator's own opcodes. Refunds
 * (at most a fifth of the gas used, EIP-3529) are not seen inside the call: a transaction that
 * earns one uses that much less.
 */
export function transactionGasOf(call: SimulatedCall, measured: bigint): bigint {
  // Counted on the bytes: a BigInt sum over the hex pairs cost 18-24 µs a swap's calldata.
  const bytes = Buffer.from(hexData(call.data), 'hex');
  let zeros = 0;
  for (let i = 0; i < bytes.length; i += 1) if (bytes[i] === 0) zeros += 1;
  const calldataGas = BigInt(4 * zeros + 16 * (bytes.length - zeros));
  const callOverhead = 100n + (call.value > 0n ? 6_700n : 0n) + SIMULATOR_OPCODES_GAS;
  return 21_000n + calldataGas + measured - callOverhead;
}
