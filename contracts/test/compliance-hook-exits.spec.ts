/**
 * An exit never needs a session (design §7): decreasing, collecting and burning a position
 * through the real PositionManager work for a wallet that never had a session and for one whose
 * session the attester revoked. Hook v2 does see exits (beforeRemoveLiquidity), for one rule
 * only: under the exit policy "freeze" (the devnet's), a wallet the sanctions oracle lists
 * cannot exit until it is unlisted.
 */
import { Contract, Wallet } from 'ethers';
import { SANCTIONS_LIST } from '../../src/chain/abi/sanctions-list';
import type { NetworkDefinition } from '../../src/chain/network/network.types';
import { useContractFixture } from './contract-fixture';
import {
  burnAndTake,
  decreaseAndTake,
  mintPosition,
  POSITION_MANAGER,
  swapExactInSingle,
} from './uniswap-actions';

/** PUSH0 PUSH0 REVERT: reverts every call, whatever the selector. */
const TRIPWIRE_CODE = '0x5f5ffd';

describe('ComplianceHook: exits', () => {
  const f = useContractFixture();
  let net: NetworkDefinition;
  let pm: Contract;
  let alice: Wallet, bob: Wallet, carol: Wallet, dave: Wallet;

  beforeAll(() => {
    net = f.net;
    pm = new Contract(net.contracts.positionManager, POSITION_MANAGER, f.provider);
    [, alice, bob, carol, dave] = f.wallets;
  });

  const send = async (from: Wallet, data: string) =>
    (await f.send(from, net.contracts.positionManager, data))!.status;

  /** `minter` (with a session) mints a full-range position owned by `owner`. */
  async function mintFor(minter: Wallet, owner: string): Promise<bigint> {
    await f.approveThroughPermit2(minter, net.contracts.positionManager);
    await f.activate(minter.address);
    const tokenId = (await pm.nextTokenId()) as bigint;
    const mint = mintPosition(net.pool, -887220, 887220, 10n ** 12n, owner, 10n ** 18n, 10n ** 10n);
    expect(await send(minter, mint)).toBe(1);
    expect(await pm.ownerOf(tokenId)).toBe(owner);
    return tokenId;
  }

  /** Fees for the position: a swap by a wallet with a session. */
  async function trade(): Promise<void> {
    await f.approveThroughPermit2(dave, net.contracts.universalRouter);
    await f.activate(dave.address);
    const receipt = await f.send(
      dave,
      net.contracts.universalRouter,
      swapExactInSingle(net.pool, true, 10n ** 17n),
    );
    expect(receipt!.status).toBe(1);
  }

  async function exitCompletely(owner: Wallet, tokenId: bigint): Promise<void> {
    const weth = net.tokens.WETH.address;
    // collect (decrease by 0 + take): the fees of the trade
    let before = await f.balance(weth, owner.address);
    expect(await send(owner, decreaseAndTake(net.pool, tokenId, 0n, owner.address))).toBe(1);
    expect(await f.balance(weth, owner.address)).toBeGreaterThan(before);
    // half the liquidity
    before = await f.balance(weth, owner.address);
    expect(
      await send(owner, decreaseAndTake(net.pool, tokenId, 5n * 10n ** 11n, owner.address)),
    ).toBe(1);
    expect(await pm.getPositionLiquidity(tokenId)).toBe(5n * 10n ** 11n);
    expect(await f.balance(weth, owner.address)).toBeGreaterThan(before);
    // burn the rest
    before = await f.balance(weth, owner.address);
    expect(await send(owner, burnAndTake(net.pool, tokenId, owner.address))).toBe(1);
    expect(await f.balance(weth, owner.address)).toBeGreaterThan(before);
    await expect(pm.ownerOf(tokenId)).rejects.toThrow();
  }

  it('a wallet that never had a session collects, decreases and burns', async () => {
    const tokenId = await mintFor(alice, bob.address);
    await trade();
    expect(await f.registry.activeUntil(bob.address)).toBe(0n);
    await exitCompletely(bob, tokenId);
  });

  it('a wallet whose session was revoked collects, decreases and burns', async () => {
    const tokenId = await mintFor(carol, carol.address);
    await trade();
    await (await f.registry.revoke(carol.address)).wait();
    expect(await f.registry.activeUntil(carol.address)).toBe(0n);
    await exitCompletely(carol, tokenId);
  });

  it('a listed wallet cannot exit under the "freeze" policy, and exits once unlisted', async () => {
    expect(net.compliance.exitPolicy).toBe('freeze');
    expect(await f.hook.freezeExits()).toBe(true);
    const tokenId = await mintFor(carol, carol.address);
    await trade();
    const oracle = new Contract(net.compliance.sanctionsOracle!, SANCTIONS_LIST, f.wallets[0]);
    await (await oracle.addToSanctionsList([carol.address])).wait();
    const collect = decreaseAndTake(net.pool, tokenId, 0n, carol.address);
    const refused = await f.revertOf(carol, net.contracts.positionManager, collect);
    expect(refused).toMatchObject({
      name: 'WalletSanctioned',
      raisedBy: net.contracts.complianceHook,
    });
    expect(refused.args.wallet).toBe(carol.address);
    await (await oracle.removeFromSanctionsList([carol.address])).wait();
    await exitCompletely(carol, tokenId);
  });
});
