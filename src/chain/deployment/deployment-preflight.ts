/**
 * Checks a deployment makes before it plans: every infrastructure address of the network file has
 * code, and the token the pool pairs with WETH exists and answers as an ERC-20.
 */
import { ERC20 } from '../abi/erc20';
import { getAddress, isAddress } from 'ethers';
import type { NetworkFile } from '../network/network-definition';
import { Eip1193, ethCall, hasCode } from './deployment-rpc';
import type { TargetRequest } from './deployment-target';
import type { Infrastructure } from './deployment-types';

export type TokenRequest = { kind: 'test' } | { kind: 'existing'; address: string };

const INFRA_FIELDS: Record<keyof Infrastructure, string> = {
  create2Deployer: 'contracts.create2Deployer',
  poolManager: 'contracts.poolManager',
  positionManager: 'contracts.positionManager',
  universalRouter: 'contracts.universalRouter',
  stateView: 'contracts.stateView',
  v4Quoter: 'contracts.v4Quoter',
  permit2: 'contracts.permit2',
  weth: 'tokens.WETH.address',
};

export async function infrastructureWithoutCode(
  rpc: Eip1193,
  infra: Infrastructure,
): Promise<string[]> {
  const keys = Object.keys(INFRA_FIELDS) as Array<keyof Infrastructure>;
  const present = await Promise.all(keys.map((key) => hasCode(rpc, infra[key])));
  return keys
    .filter((_, i) => !present[i])
    .map((key) => `${INFRA_FIELDS[key]} ${infra[key]} has no code on this chain`);
}

/** The token the pool pairs with WETH, with its metadata (read from the chain when existing). */
export async function resolveToken(
  rpc: Eip1193,
  file: NetworkFile,
  request: TokenRequest | undefined,
  predictedTestToken: () => string,
  problems: string[],
): Promise<TargetRequest['token'] | null> {
  let choice = request;
  if (!choice) {
    const named = file.tokens.tUSDC.address;
    choice =
      named && isAddress(named) && getAddress(named) !== predictedTestToken()
        ? { kind: 'existing', address: named }
        : { kind: 'test' };
  }
  if (choice.kind === 'test') return choice;
  const address = getAddress(choice.address);
  if (!(await hasCode(rpc, address))) {
    problems.push(`the token ${address} has no code on this chain`);
    return null;
  }
  try {
    const [name, decimals] = await Promise.all(
      (['name', 'decimals'] as const).map(
        async (fn) =>
          ERC20.decodeFunctionResult(
            fn,
            await ethCall(rpc, address, ERC20.encodeFunctionData(fn)),
          )[0],
      ),
    );
    return { kind: 'existing', address, name: String(name), decimals: Number(decimals) };
  } catch {
    problems.push(`the token ${address} does not answer name() and decimals(): not an ERC-20`);
    return null;
  }
}
