import { AbiCoder, zeroPadValue } from 'ethers';
import { ERC20 } from '../../chain/abi/erc20';
import { WETH_EVENTS } from '../../chain/abi/weth';
import type { RawLog } from '../../chain/chain-rpc.service';
import { ETH_TOKEN } from '../receipt.types';
import { deviationsOf, ethSentBy, executedBalanceChanges } from './execution-effects';

const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const ROUTER = '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707';
const WETH = '0x77139Fa81c4434893f9D7e033C3e3903C46B820D';
const USDC = '0x993706027b3eC9d8b03A962CAaa15C133A52707c';
const POOL_MANAGER = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const SAFE = '0x20D18339b6369b94f60eFC38f6606a66B62E02D2';
const RELAYER = '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc';
const contracts = { weth: WETH, universalRouter: ROUTER };
const word = (v: bigint) => AbiCoder.defaultAbiCoder().encode(['uint256'], [v]);
const topic = (a: string) => zeroPadValue(a.toLowerCase(), 32);

function transfer(token: string, from: string, to: string, amount: bigint): RawLog {
  return {
    address: token.toLowerCase(),
    topics: [ERC20.getEvent('Transfer')!.topicHash, topic(from), topic(to)],
    data: word(amount),
    blockNumber: '0x1',
    transactionHash: '0x',
    logIndex: '0x0',
  };
}

function withdrawal(by: string, amount: bigint): RawLog {
  return {
    address: WETH,
    topics: [WETH_EVENTS.getEvent('Withdrawal')!.topicHash, topic(by)],
    data: word(amount),
    blockNumber: '0x1',
    transactionHash: '0x',
    logIndex: '0x1',
  };
}

describe('execution effects', () => {
  it("sums the wallet's ERC-20 transfers per token, sorted, leaving others' out", () => {
    const logs = [
      transfer(WETH, WALLET, POOL_MANAGER, 10n),
      transfer(USDC, POOL_MANAGER, WALLET, 30n),
      transfer(USDC, POOL_MANAGER, ROUTER, 99n),
      transfer(WETH, WALLET, POOL_MANAGER, 5n),
    ];
    expect(
      executedBalanceChanges({ wallet: WALLET, ethSent: 0n, status: 'success', logs }, contracts),
    ).toEqual([
      { token: WETH, delta: '-15' },
      { token: USDC, delta: '30' },
    ]);
  });

  it("counts ETH paid as the transaction's value and ETH the router unwrapped for the wallet", () => {
    const paid = executedBalanceChanges(
      { wallet: WALLET, ethSent: 7n, status: 'success', logs: [withdrawal(ROUTER, 2n)] },
      contracts,
    );
    expect(paid).toEqual([{ token: ETH_TOKEN, delta: '-5' }]);
    // A withdrawal by anyone else is not the wallet's ETH.
    expect(
      executedBalanceChanges(
        { wallet: WALLET, ethSent: 0n, status: 'success', logs: [withdrawal(POOL_MANAGER, 2n)] },
        contracts,
      ),
    ).toEqual([]);
  });

  it("counts a Safe's own changes when another account sent its execTransaction", () => {
    // The relayer sent the transaction with no value; the Safe's call to the router paid 5 wei.
    const mined = { from: RELAYER, value: 0n };
    const ethSent = ethSentBy(SAFE, mined, { value: '5' });
    expect(ethSent).toBe(5n);
    const logs = [
      transfer(WETH, SAFE, POOL_MANAGER, 10n),
      transfer(USDC, POOL_MANAGER, SAFE, 30n),
      transfer(USDC, POOL_MANAGER, RELAYER, 99n),
    ];
    expect(
      executedBalanceChanges({ wallet: SAFE, ethSent, status: 'success', logs }, contracts),
    ).toEqual([
      { token: ETH_TOKEN, delta: '-5' },
      { token: WETH, delta: '-10' },
      { token: USDC, delta: '30' },
    ]);
  });

  it("takes the ETH sent from the transaction's value when the wallet sent it itself", () => {
    expect(ethSentBy(WALLET, { from: WALLET.toLowerCase(), value: 7n }, { value: '7' })).toBe(7n);
  });

  it('moves nothing when reverted', () => {
    const logs = [transfer(WETH, WALLET, POOL_MANAGER, 10n)];
    expect(
      executedBalanceChanges({ wallet: WALLET, ethSent: 9n, status: 'reverted', logs }, contracts),
    ).toEqual([]);
  });

  it('flags an exact side by any difference, the other beyond the tolerance, and any unsimulated token', () => {
    const simulated = [
      { token: WETH, delta: '-1000' },
      { token: USDC, delta: '10000' },
    ];
    const tolerance = { toleranceBps: 50, exact: [WETH] };
    expect(
      deviationsOf(
        simulated,
        [
          { token: WETH, delta: '-1000' },
          { token: USDC, delta: '9950' },
        ],
        tolerance,
      ),
    ).toEqual([]);
    expect(
      deviationsOf(
        simulated,
        [
          { token: WETH, delta: '-1000' },
          { token: USDC, delta: '9949' },
        ],
        tolerance,
      ),
    ).toEqual([{ token: USDC, simulated: '10000', executed: '9949', toleranceBps: 50 }]);
    expect(
      deviationsOf(
        simulated,
        [
          { token: WETH, delta: '-1001' },
          { token: USDC, delta: '10000' },
        ],
        tolerance,
      ),
    ).toEqual([{ token: WETH, simulated: '-1000', executed: '-1001', toleranceBps: 0 }]);
    expect(
      deviationsOf(simulated, [...simulated, { token: ETH_TOKEN, delta: '-1' }], {
        toleranceBps: null,
        exact: [],
      }),
    ).toEqual([{ token: ETH_TOKEN, simulated: '0', executed: '-1', toleranceBps: 0 }]);
    // No bound (a collect): a different amount of a simulated token is not flagged.
    expect(
      deviationsOf(
        simulated,
        [
          { token: WETH, delta: '-5' },
          { token: USDC, delta: '1' },
        ],
        { toleranceBps: null, exact: [] },
      ),
    ).toEqual([]);
  });
});
