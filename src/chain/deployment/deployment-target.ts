/**
 * The complete deployment a run aims at, resolved from the network file and the operator's
 * choices: our contracts' CREATE2 addresses, the token, the pool key, its initial price and the
 * optional seed. Pure (the token's metadata is read by the caller).
 */
import { getAddress } from 'ethers';
import type { NetworkFile } from '../network/network-definition';
import type { ComplianceNetworkSettings } from '../network/network.types';
import { predictOurContracts } from './create2-addresses';
import { resolveMarketTarget } from './market-deployment';
import { TEST_TOKEN } from './deployment-constants';
import type { DeploymentTarget, Infrastructure, TokenChoice } from './deployment-types';
import { parseDecimal, parseUnitsExact, sqrtPriceX96FromPrice } from './pool-math';

const WETH_DECIMALS = 18;

export interface SeedRequest {
  /** Who provides the liquidity (signs its transactions): the deployer on a real network. */
  seeder: string;
  /** WETH side, in whole WETH ("0.1"). */
  weth: string;
  /** Token side in whole tokens; default: the WETH side at the initial price. */
  token?: string;
  sessionSeconds: number;
}

export interface TargetRequest {
  chainId: number;
  infra: Infrastructure;
  deployer: string;
  attester: string;
  previousAttester: string | null;
  /** Hook v3's authorizers; absent or empty: the attester. */
  authorizers?: string[];
  /** The registry the file names, if any (kept when it is not where this pair would deploy one). */
  existingRegistry: string | null;
  /** The network file's sanctions oracle and exit policy, built into the hook. */
  screening: ComplianceNetworkSettings;
  /** A test token (deployed by us) or an existing token, with its metadata. */
  token: { kind: 'test' } | { kind: 'existing'; address: string; name: string; decimals: number };
  /** Whole tokens per WETH ("3000"). */
  initialPrice: string;
  pool: NetworkFile['pool'];
  seed: SeedRequest | null;
  /** The file's market (tokens, pools); absent: the spec's pool alone. */
  market?: Pick<NetworkFile, 'name' | 'tokens' | 'pool' | 'pools'>;
}

/** `weth` whole WETH worth of the token at `price` (token per WETH), in token units, rounded down. */
function tokenUnitsAt(weth: bigint, price: string, decimals: number): bigint {
  const { numerator, denominator } = parseDecimal(price);
  return (
    (weth * numerator * 10n ** BigInt(decimals)) / (denominator * 10n ** BigInt(WETH_DECIMALS))
  );
}

export function resolveDeploymentTarget(request: TargetRequest): DeploymentTarget {
  const deployer = getAddress(request.deployer);
  const contracts = predictOurContracts({
    create2Deployer: request.infra.create2Deployer,
    poolManager: request.infra.poolManager,
    weth: request.infra.weth,
    deployer,
    attester: request.attester,
    existingRegistry: request.existingRegistry,
    screening: request.screening,
  });
  const token: TokenChoice =
    request.token.kind === 'test'
      ? {
          kind: 'test',
          address: contracts.testToken.address,
          name: TEST_TOKEN.name,
          decimals: TEST_TOKEN.decimals,
        }
      : {
          kind: 'existing',
          address: getAddress(request.token.address),
          name: request.token.name,
          decimals: request.token.decimals,
        };
  const sqrtPriceX96 = sqrtPriceX96FromPrice(request.initialPrice, WETH_DECIMALS, token.decimals);
  const seed = request.seed;
  const wethAmount = seed ? parseUnitsExact(seed.weth, WETH_DECIMALS) : 0n;
  const markets = request.market
    ? resolveMarketTarget({
        file: request.market,
        infra: request.infra,
        deployer,
        hook: contracts.complianceHook.address,
        tusdc: token,
        seed: seed !== null,
      })
    : { tokens: {}, pools: [] };
  return {
    markets,
    chainId: request.chainId,
    infra: request.infra,
    deployer,
    attester: getAddress(request.attester),
    previousAttester: request.previousAttester ? getAddress(request.previousAttester) : null,
    authorizers: [
      ...new Set(
        (request.authorizers?.length ? request.authorizers : [request.attester]).map((a) =>
          getAddress(a),
        ),
      ),
    ],
    contracts,
    token,
    poolKey: {
      currency0: request.infra.weth,
      currency1: token.address,
      fee: request.pool.fee,
      tickSpacing: request.pool.tickSpacing,
      hooks: contracts.complianceHook.address,
    },
    sqrtPriceX96,
    seed: seed && {
      seeder: getAddress(seed.seeder),
      wethAmount,
      tokenAmount:
        seed.token !== undefined
          ? parseUnitsExact(seed.token, token.decimals)
          : tokenUnitsAt(wethAmount, request.initialPrice, token.decimals),
      sessionSeconds: seed.sessionSeconds,
    },
  };
}
