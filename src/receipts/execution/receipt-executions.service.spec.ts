import { Test } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import { AbiCoder, zeroPadValue } from 'ethers';
import { ERC20 } from '../../chain/abi/erc20';
import type { RawLog } from '../../chain/chain-rpc.service';
import { NetworkFile, resolveNetworkFile } from '../../chain/network/network-definition';
import { NetworkService } from '../../chain/network/network.service';
import devnetFile from '../../config/networks/devnet.json';
import { ETH_TOKEN, ExecutionPayload, ReceiptExecution } from '../receipt.types';
import { ReceiptSigner } from '../signing/receipt-signer';
import { MinedView, ReceiptExecutionsService } from './receipt-executions.service';

const network = resolveNetworkFile(devnetFile as NetworkFile);
const USDC = network.tokens.tUSDC.address;
const SAFE = '0x20D18339b6369b94f60eFC38f6606a66B62E02D2';
const RELAYER = '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc';
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const POOL_MANAGER = network.contracts.poolManager;

const topic = (address: string) => zeroPadValue(address.toLowerCase(), 32);
function transfer(token: string, from: string, to: string, amount: bigint): RawLog {
  return {
    address: token.toLowerCase(),
    topics: [ERC20.getEvent('Transfer')!.topicHash, topic(from), topic(to)],
    data: AbiCoder.defaultAbiCoder().encode(['uint256'], [amount]),
    blockNumber: '0x7',
    transactionHash: '0x',
    logIndex: '0x0',
  };
}

/** A receipt of a native-ETH swap built for `wallet`, as issued (only what an execution reads). */
function issuedJws(wallet: string): string {
  const payload = {
    wallet,
    transaction: { to: network.contracts.universalRouter, data: '0x', value: '1000', gas: '1' },
    simulation: {
      status: 'success',
      balanceChanges: [
        { token: ETH_TOKEN, delta: '-1000' },
        { token: USDC, delta: '30' },
      ],
    },
    tolerance: { toleranceBps: 50, exact: [ETH_TOKEN] },
  };
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'ES256' })}.${part(payload)}.signature`;
}

describe(ReceiptExecutionsService.name, () => {
  let executions: ReceiptExecutionsService;
  let stored: string | null;

  beforeEach(async () => {
    const manager = {
      connection: { options: { type: 'sqlite' } },
      query: () => Promise.resolve(stored === null ? [] : [{ jws: stored }]),
    };
    const module = await Test.createTestingModule({
      providers: [
        ReceiptExecutionsService,
        { provide: getDataSourceToken(), useValue: { manager } },
        { provide: ReceiptSigner, useValue: { sign: (payload: string) => payload } },
        { provide: NetworkService, useValue: { definition: network } },
      ],
    }).compile();
    executions = module.get(ReceiptExecutionsService);
  });

  const mined = (from: string, value: bigint, wallet: string): MinedView => ({
    txHash: '0xabc',
    blockNumber: 7,
    status: 'success',
    gasUsed: 90_000n,
    from,
    value,
    logs: [transfer(USDC, POOL_MANAGER, wallet, 30n), transfer(USDC, POOL_MANAGER, RELAYER, 5n)],
    relayed: true,
  });

  async function executionOf(view: MinedView): Promise<ReceiptExecution> {
    const signed = await executions.sign('receipt-1', view);
    return (JSON.parse(signed!.executionJws) as ExecutionPayload).execution;
  }

  it("holds a relayed Safe transaction to the Safe's changes and its call's ETH, not the relayer's", async () => {
    stored = issuedJws(SAFE);
    // execTransaction carries no ETH: the Safe paid the router the 1000 wei its call sent.
    expect(await executionOf(mined(RELAYER, 0n, SAFE))).toMatchObject({
      balanceChanges: [
        { token: ETH_TOKEN, delta: '-1000' },
        { token: USDC, delta: '30' },
      ],
      withinSlippage: true,
      deviations: [],
    });
  });

  it("holds a wallet's own transaction to the ETH it sent", async () => {
    stored = issuedJws(WALLET);
    expect(await executionOf(mined(WALLET, 1000n, WALLET))).toMatchObject({
      balanceChanges: [
        { token: ETH_TOKEN, delta: '-1000' },
        { token: USDC, delta: '30' },
      ],
      withinSlippage: true,
    });
  });

  it('answers null for a receipt that is not there', async () => {
    stored = null;
    expect(await executions.sign('missing', mined(SAFE, 0n, SAFE))).toBeNull();
  });
});
