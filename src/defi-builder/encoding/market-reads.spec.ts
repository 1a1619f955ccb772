import devnetFile from '../../config/networks/devnet.json';
import { STATE_VIEW, V4_QUOTER } from '../../chain/abi/uniswap-v4';
import { decodeRevert } from '../../chain/encoding/revert-decoder';
import { NetworkFile, resolveNetworkFile } from '../../chain/network/network-definition';
import { quoteExactInputRead, slot0Read } from './market-reads';
import { poolIdOf, poolKeyTuple } from './pool-key';

const network = resolveNetworkFile(devnetFile as NetworkFile);

describe('market reads', () => {
  it('encodes getSlot0 and the exact-input quote exactly as ethers does; only the quote may fail', () => {
    const slot0 = slot0Read(network);
    expect(slot0.call).toEqual({
      target: network.contracts.stateView,
      allowFailure: false,
      callData: STATE_VIEW.encodeFunctionData('getSlot0', [poolIdOf(network.pool)]),
    });
    const quote = quoteExactInputRead(network, true, 5n);
    expect(quote.call).toEqual({
      target: network.contracts.v4Quoter,
      allowFailure: true,
      callData: V4_QUOTER.encodeFunctionData('quoteExactInputSingle', [
        [poolKeyTuple(network.pool), true, 5n, '0x'],
      ]),
    });
  });

  it('decodes slot0 (signed tick) and a quote or its decoded revert', () => {
    const slot0 = slot0Read(network).decode({
      ok: true,
      returnData: STATE_VIEW.encodeFunctionResult('getSlot0', [
        79228162514264337593543950336n,
        -5n,
        0n,
        3000n,
      ]),
    });
    expect(slot0).toEqual({ sqrtPriceX96: 79228162514264337593543950336n, tick: -5 });
    const read = quoteExactInputRead(network, true, 5n);
    expect(
      read.decode({
        ok: true,
        returnData: V4_QUOTER.encodeFunctionResult('quoteExactInputSingle', [99n, 1n]),
      }),
    ).toEqual({ ok: true, amountOut: 99n });
    const revert = decodeRevert('0x12345678');
    expect(read.decode({ ok: false, revert })).toEqual({ ok: false, revert });
  });
});
