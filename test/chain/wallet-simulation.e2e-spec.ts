/**
 * The receipts' simulation method on the devnet (issue 56): eth_call with a state override that
 * puts WalletSimulator's code at the wallet. The built calls run from the wallet as the signed
 * transactions will (msg.sender = wallet), a Permit2 signature is checked as for the EOA, ETH sent
 * to the wallet arrives, a reverting call is named, and the estimate rides in the same batch.
 */
import { AllowanceTransfer, PermitSingle } from '@uniswap/permit2-sdk';
import { Contract, id, Interface, MaxUint256, parseEther, Wallet } from 'ethers';
import type { ChainConfig } from '../../src/config/chain.config';
import type { ChainConnection } from '../../src/chain/chain-connection';
import { ChainRpcService } from '../../src/chain/chain-rpc.service';
import { createJsonRpcTransport } from '../../src/chain/json-rpc-http';
import { FailoverJsonRpcProvider } from '../../src/chain/failover-provider';
import { WalletSimulatorService } from '../../src/chain/simulation/wallet-simulator.service';
import { acquireDevnet, DevnetHandle } from '../helpers/devnet';

const PERMIT2 = new Interface([
  'function permit(address owner, ((address token, uint160 amount, uint48 expiration, uint48 nonce) details, address spender, uint256 sigDeadline) permitSingle, bytes signature)',
  'function allowance(address user, address token, address spender) view returns (uint160 amount, uint48 expiration, uint48 nonce)',
]);
const WETH_WITHDRAW = new Interface(['function withdraw(uint256 wad)']);
const TOKEN = new Interface([
  'function transfer(address to, uint256 amount) returns (bool)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
]);
const ETH = '0x0000000000000000000000000000000000000000';

describe('WalletSimulatorService (devnet)', () => {
  let chain: DevnetHandle;
  let simulator: WalletSimulatorService;
  let transport: ReturnType<typeof createJsonRpcTransport>;

  beforeAll(async () => {
    chain = await acquireDevnet();
    transport = createJsonRpcTransport(chain.rpcUrl, 10_000);
    const rpc = new ChainRpcService(
      {
        provider: new FailoverJsonRpcProvider(transport, chain.deployment.chainId),
        reads: transport,
      } as unknown as ChainConnection,
      { timeoutMs: 10_000, retries: 0, healthTimeoutMs: 1_000 } as ChainConfig,
    );
    simulator = new WalletSimulatorService(rpc);
  }, 60_000);
  afterAll(async () => {
    transport?.destroy();
    await chain?.release();
  });

  const head = async () => Number(await chain.provider.getBlockNumber());
  const weth = () => chain.addresses.WETH;
  const wethBalance = (owner: string) =>
    new Contract(weth(), TOKEN, chain.provider).balanceOf(owner) as Promise<bigint>;

  it('runs the calls from the wallet at one block and answers the balances after them', async () => {
    const wallet = chain.wallets[3];
    const other = chain.wallets[4].address;
    const before = await chain.provider.getBalance(wallet.address);
    const wethBefore = await wethBalance(wallet.address);
    const { simulation, estimate } = await simulator.estimateAndSimulate(
      { from: wallet.address, to: weth(), data: TOKEN.encodeFunctionData('transfer', [other, 1n]) },
      {
        wallet: wallet.address,
        calls: [
          {
            to: weth(),
            value: 0n,
            data: TOKEN.encodeFunctionData('transfer', [other, parseEther('2')]),
          },
          { to: other, value: parseEther('1'), data: '0x' },
          // WETH sends the ETH of a withdrawal to msg.sender: the wallet must take it.
          {
            to: weth(),
            value: 0n,
            data: WETH_WITHDRAW.encodeFunctionData('withdraw', [parseEther('3')]),
          },
        ],
        tokens: [weth(), ETH],
      },
      await head(),
    );
    expect(estimate).toMatchObject({ ok: true });
    expect(simulation.ok).toBe(true);
    if (!simulation.ok) return;
    expect(simulation.balancesAfter).toEqual([
      wethBefore - parseEther('5'),
      before - parseEther('1') + parseEther('3'),
    ]);
    expect(simulation.gasUsed).toHaveLength(3);
    // Nothing was written: it was an eth_call.
    expect(await wethBalance(wallet.address)).toBe(wethBefore);
  });

  it("passes a Permit2 permit the wallet's key signed, and refuses one another key signed", async () => {
    const wallet = chain.wallets[5];
    const permit2 = chain.network.contracts.permit2;
    const spender = chain.network.contracts.universalRouter;
    const now = Math.floor(Date.now() / 1000);
    const values: PermitSingle = {
      details: {
        token: weth(),
        amount: (2n ** 160n - 1n).toString(),
        expiration: now + 3_600,
        nonce: 0,
      },
      spender,
      sigDeadline: now + 600,
    };
    const { domain, types } = AllowanceTransfer.getPermitData(
      values,
      permit2,
      chain.deployment.chainId,
    );
    const sign = (signer: Wallet) =>
      signer.signTypedData(domain as Record<string, string>, types, values);
    const permitCall = (signature: string) => ({
      to: permit2,
      value: 0n,
      data: PERMIT2.encodeFunctionData('permit', [
        wallet.address,
        [
          [weth(), values.details.amount, values.details.expiration, 0],
          spender,
          values.sigDeadline,
        ],
        signature,
      ]),
    });
    const allowanceRead = {
      to: permit2,
      value: 0n,
      data: PERMIT2.encodeFunctionData('allowance', [wallet.address, weth(), spender]),
    };
    const good = await simulator.estimateAndSimulate(
      null,
      {
        wallet: wallet.address,
        calls: [permitCall(await sign(wallet)), allowanceRead],
        tokens: [],
      },
      await head(),
    );
    expect(good.estimate).toBeNull();
    expect(good.simulation.ok).toBe(true);

    const bad = await simulator.estimateAndSimulate(
      null,
      { wallet: wallet.address, calls: [permitCall(await sign(chain.wallets[6]))], tokens: [] },
      await head(),
    );
    // Permit2's InvalidContractSignature(): what it answers a wrong ERC-1271 signature.
    expect(bad.simulation).toMatchObject({ ok: false, callIndex: 0 });
    expect(JSON.stringify(bad.simulation)).toContain(id('InvalidContractSignature()').slice(0, 10));
  });

  it('names the call that reverted and decodes its reason', async () => {
    const wallet = chain.wallets[7];
    const { simulation } = await simulator.estimateAndSimulate(
      null,
      {
        wallet: wallet.address,
        calls: [
          {
            to: weth(),
            value: 0n,
            data: TOKEN.encodeFunctionData('approve', [weth(), MaxUint256]),
          },
          {
            to: weth(),
            value: 0n,
            data: TOKEN.encodeFunctionData('transfer', [chain.wallets[8].address, 10n ** 30n]),
          },
        ],
        tokens: [weth()],
      },
      await head(),
    );
    expect(simulation).toMatchObject({ ok: false, callIndex: 1 });
  });
});
