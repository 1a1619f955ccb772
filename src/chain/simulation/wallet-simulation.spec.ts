import { AbiCoder } from 'ethers';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { loadOwnArtifact } from '../deployment/contract-artifacts';
import { WALLET_SIMULATOR } from '../abi/wallet-simulator';
import {
  callRevertOf,
  decodeSimulateResult,
  encodeSimulateCalldata,
  SIMULATOR_OPCODES_GAS,
  transactionGasOf,
  walletSimulationCall,
} from './wallet-simulation';

describe('wallet-simulation', () => {
  it('encodes simulate(calls, tokens) exactly as ethers does, over 300 seeded random inputs', () => {
    const random = seededRandom(56);
    for (let n = 0; n < 300; n += 1) {
      const calls = Array.from({ length: random.int(4) }, () => ({
        to: random.address(),
        value: random.uint(256),
        data: `0x${random.bytes(random.int(3) === 0 ? 0 : random.int(700))}`,
      }));
      const tokens = Array.from({ length: random.int(5) }, () => random.address());
      expect(encodeSimulateCalldata(calls, tokens)).toBe(
        WALLET_SIMULATOR.encodeFunctionData('simulate', [
          calls.map((c) => [c.to, c.value, c.data]),
          tokens,
        ]),
      );
    }
  });

  it('decodes what simulate returns, and refuses truncated data', () => {
    const balances = [0n, 1n, 2n ** 256n - 1n];
    const gas = [21_000n, 151_081n];
    const raw = AbiCoder.defaultAbiCoder().encode(['uint256[]', 'uint256[]'], [balances, gas]);
    expect(decodeSimulateResult(raw)).toEqual({ balancesAfter: balances, gasUsed: gas });
    expect(
      decodeSimulateResult(AbiCoder.defaultAbiCoder().encode(['uint256[]', 'uint256[]'], [[], []])),
    ).toEqual({
      balancesAfter: [],
      gasUsed: [],
    });
    expect(() => decodeSimulateResult(raw.slice(0, raw.length - 64))).toThrow(/truncated/);
    expect(() => decodeSimulateResult('0x')).toThrow(/truncated/);
  });

  it('names the call that reverted and its own revert data', () => {
    const reason = '0x08c379a0' + AbiCoder.defaultAbiCoder().encode(['string'], ['nope']).slice(2);
    const data = WALLET_SIMULATOR.encodeErrorResult('CallReverted', [2, reason]);
    expect(callRevertOf(data)).toEqual({ index: 2, reason });
    expect(callRevertOf(WALLET_SIMULATOR.encodeErrorResult('NotSelf', []))).toBeNull();
    expect(callRevertOf('0x')).toBeNull();
  });

  it('calls the wallet from itself, with the simulator runtime code overriding the wallet', () => {
    const wallet = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    const call = walletSimulationCall({ wallet, calls: [], tokens: [] });
    const lower = wallet.toLowerCase();
    expect(call.tx.from).toBe(lower);
    expect(call.tx.to).toBe(lower);
    expect(call.stateOverride).toEqual({
      [lower]: { code: loadOwnArtifact('WalletSimulator').deployedBytecode },
    });
  });

  it('turns a measured CALL into a transaction gas figure: intrinsic gas in, CALL overhead out', () => {
    // 21,000 + 4 per zero byte + 16 per other byte; the warm CALL's 100 (and with value 6,700)
    // and the simulator's own opcodes out.
    expect(transactionGasOf({ to: '0x' + '1'.repeat(40), data: '0x0001', value: 0n }, 1_000n)).toBe(
      21_000n + 4n + 16n + 1_000n - 100n - SIMULATOR_OPCODES_GAS,
    );
    expect(transactionGasOf({ to: '0x' + '1'.repeat(40), data: '0x', value: 1n }, 10_000n)).toBe(
      21_000n + 10_000n - 6_800n - SIMULATOR_OPCODES_GAS,
    );
  });
});
