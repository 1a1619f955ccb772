/**
 * `npm run bench:sanctions-gas`: the gas the sanctions check (hook v2's staticcall to the oracle)
 * adds to one swap, on the embedded devnet. The same swap runs from the same chain state twice
 * (evm_snapshot / evm_revert): with the deployed hook, whose oracle answers false, and with the
 * same hook whose `sanctionsOracle` immutable is zeroed in its runtime code (no oracle: the check
 * returns at once). The difference is the check's cost; printed per swap, with both totals.
 */
import { Contract } from 'ethers';
import { COMPLIANCE_REGISTRY } from '../src/chain/abi/compliance-registry';
import { swapExactInSingle } from '../contracts/test/uniswap-actions';
import { approveThroughPermit2, sendMined, withDevnetWallets } from './lib/devnet-wallets';

const SWAPS = 5;

async function main(): Promise<void> {
  await withDevnetWallets(2, async ({ net, provider, wallets: [attester, trader] }) => {
    const send = (to: string, data: string) => sendMined(trader, to, data);
    await approveThroughPermit2(
      trader,
      net,
      [net.tokens.WETH.address, net.tokens.tUSDC.address],
      [net.contracts.universalRouter],
    );
    const now = (await provider.getBlock('latest'))!.timestamp;
    const registry = new Contract(net.contracts.complianceRegistry, COMPLIANCE_REGISTRY, attester);
    await (await registry.activate(trader.address, now + 86_400)).wait();

    const oracle = net.compliance.sanctionsOracle!;
    const hook = net.contracts.complianceHook;
    const code = (await provider.getCode(hook)).toLowerCase();
    const word = oracle.slice(2).toLowerCase().padStart(64, '0');
    const withoutOracle = code.split(word).join('0'.repeat(64));
    if (withoutOracle === code)
      throw new Error('the oracle address is not in the hook runtime code');

    const swap = swapExactInSingle(net.pool, true, 10n ** 16n);
    const gasOf = async (runtime: string | null): Promise<bigint[]> => {
      const snapshot = (await provider.send('evm_snapshot', [])) as string;
      if (runtime) await provider.send('hardhat_setCode', [hook, runtime]);
      const used: bigint[] = [];
      for (let i = 0; i < SWAPS; i++) {
        used.push((await send(net.contracts.universalRouter, swap)).gasUsed);
      }
      await provider.send('evm_revert', [snapshot]);
      return used;
    };
    const screened = await gasOf(null);
    const unscreened = await gasOf(withoutOracle);
    const added = screened.map((g, i) => g - unscreened[i]);
    console.log(`swap gas with the sanctions check (oracle answers false): ${screened.join(', ')}`);
    console.log(`swap gas, same hook without an oracle:                 ${unscreened.join(', ')}`);
    console.log(`gas added per swap by the sanctions check:              ${added.join(', ')}`);
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
