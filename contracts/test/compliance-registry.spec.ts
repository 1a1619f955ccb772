/** ComplianceRegistry on the local EVM: attesters, owner, session expiry, revocation. */
import { Contract, JsonRpcProvider, Wallet } from 'ethers';
import type { NetworkDefinition } from '../../src/chain/network/network.types';
import { FAR, useContractFixture } from './contract-fixture';

describe('ComplianceRegistry', () => {
  const f = useContractFixture();
  let net: NetworkDefinition;
  let provider: JsonRpcProvider;
  let registry: Contract;
  let wallets: Wallet[];
  let deployer: Wallet, alice: Wallet, bob: Wallet;
  const activate = (who: string, seconds?: number) =>
    f.activate(who, seconds) as Promise<{ logs: { topics: readonly string[]; data: string }[] }>;
  const revertOf = (from: Wallet, to: string, data: string) => f.revertOf(from, to, data);
  const now = () => f.now();

  beforeAll(() => {
    ({ net, provider, registry, wallets } = f);
    [deployer, alice, bob] = wallets;
  });

  it('is owned by the deployer, who is also the attester; funded wallets start without a session', async () => {
    expect(await registry.owner()).toBe(deployer.address);
    expect(await registry.isAttester(deployer.address)).toBe(true);
    for (const w of wallets) expect(await registry.isActive(w.address)).toBe(false);
  });

  it('lets only attesters activate and revoke', async () => {
    const asAlice = registry.connect(alice) as Contract;
    expect(
      await revertOf(
        alice,
        net.contracts.complianceRegistry,
        asAlice.interface.encodeFunctionData('activate', [alice.address, FAR]),
      ),
    ).toMatchObject({
      name: 'NotAttester',
      code: 'NOT_ATTESTER',
    });
    expect(
      (
        await revertOf(
          alice,
          net.contracts.complianceRegistry,
          asAlice.interface.encodeFunctionData('revoke', [bob.address]),
        )
      ).name,
    ).toBe('NotAttester');
  });

  it('activates until an expiry, which then lapses; refuses an expiry in the past', async () => {
    const receipt = await activate(alice.address, 100);
    expect(receipt.logs.map((l) => registry.interface.parseLog(l)?.name)).toContain(
      'SessionActivated',
    );
    expect(await registry.isActive(alice.address)).toBe(true);
    await provider.send('evm_increaseTime', [101]);
    await provider.send('evm_mine', []);
    expect(await registry.isActive(alice.address)).toBe(false);
    const past = (await now()) - 1;
    expect(
      (
        await revertOf(
          deployer,
          net.contracts.complianceRegistry,
          registry.interface.encodeFunctionData('activate', [alice.address, past]),
        )
      ).name,
    ).toBe('ExpiryNotInFuture');
  });

  it('revokes a session', async () => {
    await activate(alice.address);
    await (await registry.revoke(alice.address)).wait();
    expect(await registry.isActive(alice.address)).toBe(false);
    expect(await registry.activeUntil(alice.address)).toBe(0n);
  });

  it('lets only the owner manage attesters', async () => {
    const data = registry.interface.encodeFunctionData('setAttester', [alice.address, true]);
    expect((await revertOf(alice, net.contracts.complianceRegistry, data)).name).toBe('NotOwner');
    await (await registry.setAttester(alice.address, true)).wait();
    await (await (registry.connect(alice) as Contract).activate(bob.address, FAR)).wait();
    expect(await registry.isActive(bob.address)).toBe(true);
    await (await registry.setAttester(alice.address, false)).wait();
    expect(
      (
        await revertOf(
          alice,
          net.contracts.complianceRegistry,
          registry.interface.encodeFunctionData('revoke', [bob.address]),
        )
      ).name,
    ).toBe('NotAttester');
  });
});
