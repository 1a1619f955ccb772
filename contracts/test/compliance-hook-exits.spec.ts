/**
 * An exit never needs a session (design §7): decreasing, collecting and burning a position
 * through the real PositionManager never reach the ComplianceHook at all (it registers no
 * remove-liquidity callback), for a wallet that never had a session and for one whose session
 * the attester revoked. Shown with a tripwire: once the position exists, the hook's code is
 * replaced by one that reverts on any call, so a single hook call would sink the transaction;
 * a mint is the control (it does reach the hook, and now reverts).
 */
import { Contract, Wallet } from 'ethers';
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

  /** From here on, any call into the hook reverts the transaction that made it. */
  async function armTripwire(minter: Wallet): Promise<void> {
    await f.provider.send('hardhat_setCode', [net.contracts.complianceHook, TRIPWIRE_CODE]);
    // Control: adding liquidity does reach the hook, so it now fails even with a session.
    const mint = mintPosition(
      net.pool,
      -600,
      600,
      10n ** 9n,
      minter.address,
      10n ** 18n,
      10n ** 10n,
    );
    const revert = await f.revertOf(minter, net.contracts.positionManager, mint);
    expect(revert).toMatchObject({ raisedBy: net.contracts.complianceHook });
  }

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

  it('a wallet that never had a session collects, decreases and burns without the hook being called', async () => {
    const tokenId = await mintFor(alice, bob.address);
    await trade();
    expect(await f.registry.activeUntil(bob.address)).toBe(0n);
    await armTripwire(alice);
    await exitCompletely(bob, tokenId);
  });

  it('a wallet whose session was revoked collects, decreases and burns without the hook being called', async () => {
    const tokenId = await mintFor(carol, carol.address);
    await trade();
    await (await f.registry.revoke(carol.address)).wait();
    expect(await f.registry.activeUntil(carol.address)).toBe(0n);
    await armTripwire(carol);
    await exitCompletely(carol, tokenId);
  });
});
