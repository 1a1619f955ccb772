import { getAddress, hexlify, randomBytes } from 'ethers';
import { ApiError } from '../../common/errors/api-error';
import { resolveNetworkFile } from '../../chain/network/network-definition';
import { readNetworkFile } from '../../chain/network/network-loader';
import {
  ADDRESS_THIS_MARKER,
  assertPayoutRecipients,
  MSG_SENDER_MARKER,
  refusedPayoutReason,
} from './payout-recipients';
import { refusedPayoutReasonByChecksum } from './payout-recipients-by-checksum';

describe('payout recipients', () => {
  // The committed devnet file: every contract and token address is filled in.
  const network = resolveNetworkFile(readNetworkFile('devnet'));
  const c = network.contracts;
  const wallet = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

  // [label, address, a word the reason must contain]
  const refused: Array<[string, string, RegExp]> = [
    ['zero address', '0x0000000000000000000000000000000000000000', /zero address/],
    ['MSG_SENDER marker', MSG_SENDER_MARKER, /MSG_SENDER/],
    ['ADDRESS_THIS marker', ADDRESS_THIS_MARKER, /ADDRESS_THIS.*sweep/],
    ['ecrecover-range precompile 0x09', '0x0000000000000000000000000000000000000009', /reserved/],
    ['P256VERIFY precompile 0x100', '0x0000000000000000000000000000000000000100', /reserved/],
    ['top of the reserved range', '0x000000000000000000000000000000000000ffff', /reserved/],
    ['PoolManager', c.poolManager, /PoolManager/],
    ['PositionManager', c.positionManager, /PositionManager/],
    ['UniversalRouter', c.universalRouter, /UniversalRouter/],
    ['Permit2', c.permit2, /Permit2/],
    ['ComplianceHook', c.complianceHook, /ComplianceHook/],
    ['ComplianceRegistry', c.complianceRegistry, /ComplianceRegistry/],
    ['StateView', c.stateView, /StateView/],
    ['V4Quoter', c.v4Quoter, /V4Quoter/],
    ['Multicall3', c.multicall3, /Multicall3/],
    ['WETH', network.tokens.WETH.address, /WETH token/],
    ['tUSDC', network.tokens.tUSDC.address, /tUSDC token/],
    ['a lower-case token address', network.tokens.tUSDC.address.toLowerCase(), /tUSDC token/],
    ['deprecated tUSDC v0', network.deprecated[0].address, /deprecated/],
  ];

  it.each(refused)('refuses %s', (_label, address, reason) => {
    expect(refusedPayoutReason(network, address)).toMatch(reason);
  });

  it.each([
    ['a wallet', wallet],
    ['the first address past the reserved range', '0x0000000000000000000000000000000000010000'],
    [
      'a deprecated HOOK address (not a token: no payout rule of its own)',
      network.deprecated[1].address,
    ],
  ])('accepts %s', (_label, address) => {
    expect(refusedPayoutReason(network, address)).toBeNull();
  });

  it('answers as the getAddress comparison it replaces, for every network address in any case and random wallets', () => {
    const known = [
      ...Object.values(c).filter((a): a is string => typeof a === 'string'),
      ...Object.values(network.tokens).map((t) => t.address),
      ...network.deprecated.map((d) => d.address),
    ];
    const candidates = [
      ...known.flatMap((a) => [a, a.toLowerCase(), getAddress(a), `0x${a.slice(2).toUpperCase()}`]),
      ...Array.from({ length: 200 }, () => {
        const random = hexlify(randomBytes(20));
        return [random, getAddress(random)];
      }).flat(),
    ];
    for (const address of candidates)
      expect([address, refusedPayoutReason(network, address)]).toEqual([
        address,
        refusedPayoutReasonByChecksum(network, address),
      ]);
    // Every contract and token of the network is refused (not one slipped through the table).
    for (const address of known.filter(
      (a) => !network.deprecated.some((d) => d.address === a && d.kind !== 'token'),
    ))
      expect(refusedPayoutReason(network, address)).not.toBeNull();
  });

  it('names every refused field in one 400 INVALID_PARAMS, and passes good ones', () => {
    expect(() =>
      assertPayoutRecipients(network, [{ field: 'userAddress', address: wallet }]),
    ).not.toThrow();
    let error: unknown;
    try {
      assertPayoutRecipients(network, [
        { field: 'userAddress', address: c.universalRouter },
        { field: 'recipient', address: ADDRESS_THIS_MARKER },
      ]);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect({ code: apiError.code, status: apiError.status }).toEqual({
      code: 'INVALID_PARAMS',
      status: 400,
    });
    expect(apiError.options.details).toEqual([
      expect.objectContaining({ field: 'userAddress', constraint: 'payoutRecipient' }),
      expect.objectContaining({ field: 'recipient', constraint: 'payoutRecipient' }),
    ]);
    expect(apiError.hint).toMatch(/omit recipient/);
  });
});
