import { AllowanceTransfer } from '@uniswap/permit2-sdk';
import { HDNodeWallet, Wallet } from 'ethers';
import {
  checkSignedPermit,
  permitDetails,
  PermitSingle,
  permitTypedData,
} from './permit2-typed-data';

const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3';
const ROUTER = '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707';
const WETH = '0x77139Fa81c4434893f9D7e033C3e3903C46B820D';
const NOW = 1_800_000_000;
const owner = Wallet.createRandom();
const other = Wallet.createRandom();

const permit: PermitSingle = {
  details: permitDetails(WETH, 100n, 4, NOW + 600),
  spender: ROUTER,
  sigDeadline: String(NOW + 600),
};
const expectation = {
  permit2: PERMIT2,
  chainId: 84532,
  owner: owner.address,
  spender: ROUTER,
  now: NOW,
  tokens: [{ token: WETH, amount: 100n, nonce: 4 }],
};
const sign = (wallet: Wallet | HDNodeWallet, values: PermitSingle) => {
  const { domain, types } = permitTypedData(values, PERMIT2, 84532);
  return wallet.signTypedData(domain, types, values);
};

describe('Permit2 typed data and signed permit checks', () => {
  it('hands out the typed data Permit2 verifies (the permit2-sdk hash)', () => {
    const data = permitTypedData(permit, PERMIT2, 84532);
    expect(data.domain).toEqual({ name: 'Permit2', chainId: 84532, verifyingContract: PERMIT2 });
    expect(Object.keys(data.types).sort()).toEqual(['PermitDetails', 'PermitSingle']);
    expect(data.values).toBe(permit);
    expect(JSON.parse(JSON.stringify(data.values))).toEqual(permit); // plain JSON
    expect(AllowanceTransfer.hash(permit, PERMIT2, 84532)).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('accepts a permit signed by the owner for the current nonce', async () => {
    expect(checkSignedPermit('permit', permit, await sign(owner, permit), expectation)).toEqual([]);
  });

  it('names the field of every refusal', async () => {
    const fields = async (values: PermitSingle, signer: Wallet | HDNodeWallet = owner, now = NOW) =>
      checkSignedPermit('permit', values, await sign(signer, values), { ...expectation, now }).map(
        (e) => `${e.field}:${e.constraint}`,
      );
    expect(await fields(permit, other)).toEqual(['permitSignature:permitSigner']);
    expect(await fields({ ...permit, details: { ...permit.details, nonce: '3' } })).toEqual([
      'permit.details.nonce:permitNonce',
    ]);
    expect(await fields({ ...permit, details: { ...permit.details, amount: '99' } })).toEqual([
      'permit.details.amount:permitAmount',
    ]);
    expect(await fields({ ...permit, spender: WETH })).toEqual(['permit.spender:permitSpender']);
    expect(await fields(permit, owner, NOW + 601)).toEqual([
      'permit.sigDeadline:permitExpired',
      'permit.details.expiration:permitExpired',
    ]);
    expect(checkSignedPermit('permit', permit, `0x${'00'.repeat(65)}`, expectation)).toEqual([
      expect.objectContaining({ field: 'permitSignature' }),
    ]);
  });
});
