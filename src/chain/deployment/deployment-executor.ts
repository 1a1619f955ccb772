/**
 * Runs OUR deployment (ComplianceRegistry, ComplianceHook at its flagged CREATE2 address, the test
 * stablecoin, the initialized pool, the optional seed) on a network whose public infrastructure a
 * network file names. One code path for every network: `npm run cli -- deploy` runs it against
 * Base Sepolia (or a bare devnet), and the embedded devnet runs it after installing the
 * infrastructure.
 *
 * Checks before spending: the RPC's chainId is the file's, every infrastructure address has code,
 * the plan has no problem, the signers' balances cover the estimated cost. Then it sends only
 * what the chain still lacks (deployment-plan.ts), records each mined transaction in the file
 * (onProgress: the caller persists it, so a crash loses nothing), and finally re-reads the chain
 * to confirm nothing is left to do.
 */
import { BaseWallet, getAddress } from 'ethers';
import { resolveComplianceSettings, type NetworkFile } from '../network/network-definition';
import { predictOurContracts } from './create2-addresses';
import { infrastructureWithoutCode, resolveToken, TokenRequest } from './deployment-preflight';
import {
  CREATE2_DEPLOYER_ADDRESS,
  DEFAULT_INITIAL_PRICE,
  DEFAULT_SEED_WETH,
  SEED_SESSION_SECONDS,
} from './deployment-constants';
import { planCost } from './deployment-cost';
import { planDeployment } from './deployment-plan';
import { recordedMarket } from './market-deployment';
import type { DeploymentPlan, DeploymentTarget, PlannedStep, StepName } from './deployment-types';
import { balanceOf, chainIdOf, currentFees, Eip1193, TransactionSender } from './deployment-rpc';
import { readDeploymentState } from './deployment-state';
import { resolveDeploymentTarget, TargetRequest } from './deployment-target';
import { DeploymentUpdate, infrastructureOf, recordDeployment } from './network-file-io';

export type { TokenRequest };

export interface DeployComplianceOptions {
  rpc: Eip1193;
  /** The network file: its chainId and infrastructure; our addresses are recorded into a copy. */
  file: NetworkFile;
  /** Signs our deployment and owns our contracts. Never logged, never written. */
  deployer: BaseWallet;
  /** Signs the seeding LP's transactions (default: the deployer). */
  seeder?: BaseWallet;
  /** The registry's attester (default: the file's recorded attester, else the deployer). */
  attester?: string;
  /** Hook v3's authorizers (default: the file's `authorizers`, else the attester). */
  authorizers?: string[];
  /** Default: the file's tUSDC when it names one, else a test token. */
  token?: TokenRequest;
  /** Whole tokens per WETH (default 3000); applied only if the pool is not initialized yet. */
  initialPrice?: string;
  /** Seed full-range liquidity (only into a pool without liquidity); null/absent: no seed. */
  seed?: { weth?: string; token?: string; sessionSeconds?: number } | null;
  pollIntervalMs?: number;
  receiptTimeoutMs?: number;
  /** After each mined transaction: the file with it recorded (persist it to resume after a crash). */
  onProgress?: (file: NetworkFile, step: ExecutedStep) => void | Promise<void>;
}

export interface ExecutedStep {
  step: StepName;
  description: string;
  from: string;
  transactionHash: string;
  blockNumber: number;
  gasUsed: bigint;
  /** Wei paid: gasUsed x effective gas price. */
  fee: bigint;
}

export type DeployOutcome = 'refused' | 'nothing-to-do' | 'deployed';

export interface DeployComplianceResult {
  outcome: DeployOutcome;
  /** Why it refused (nothing was sent). */
  problems: string[];
  /** What was found and used as is. */
  notes: string[];
  /** The steps the plan had when it refused or before it ran. */
  planned: Array<Pick<PlannedStep, 'step' | 'description'>>;
  executed: ExecutedStep[];
  /** The file with our deployment recorded (the input file when refused). */
  file: NetworkFile;
  /** Null when refused before the target could be resolved. */
  target: DeploymentTarget | null;
  /** Wei budgeted for the plan (gas budgets x max fee + values) per signer. */
  estimatedCost: { deployer: bigint; seeder: bigint };
  pool: { sqrtPriceX96: bigint; liquidity: bigint } | null;
}

const DEFAULT_POLL_MS = 1_000;
const DEFAULT_RECEIPT_TIMEOUT_MS = 180_000;

function refused(
  file: NetworkFile,
  problems: string[],
  extra: Partial<DeployComplianceResult> = {},
): DeployComplianceResult {
  return {
    outcome: 'refused',
    problems,
    notes: [],
    planned: [],
    executed: [],
    file,
    target: null,
    estimatedCost: { deployer: 0n, seeder: 0n },
    pool: null,
    ...extra,
  };
}

function describe(plan: DeploymentPlan): Array<Pick<PlannedStep, 'step' | 'description'>> {
  return plan.steps.map(({ step, description }) => ({ step, description }));
}

export async function deployCompliance(
  options: DeployComplianceOptions,
): Promise<DeployComplianceResult> {
  const { rpc, file } = options;
  const deployerWallet = options.deployer;
  const seederWallet = options.seeder ?? deployerWallet;
  const deployer = deployerWallet.address;

  // 1. The chain is the file's, and its infrastructure is there.
  const chainId = await chainIdOf(rpc);
  if (chainId !== file.chainId)
    return refused(file, [
      `the RPC serves chainId ${chainId}, the network file says ${file.chainId}: wrong RPC or wrong file`,
    ]);
  const { infra, problems: fieldProblems } = infrastructureOf(file, CREATE2_DEPLOYER_ADDRESS);
  if (fieldProblems.length > 0) return refused(file, fieldProblems);
  const missing = await infrastructureWithoutCode(rpc, infra);
  if (missing.length > 0) return refused(file, missing);

  // 2. What the complete deployment is, and what the chain still lacks of it.
  const attester = getAddress(options.attester ?? file.deployment?.attester ?? deployer);
  const recorded = file.deployment?.attester;
  const previousAttester = recorded && getAddress(recorded) !== attester ? recorded : null;
  const problems: string[] = [];
  let screening: TargetRequest['screening'];
  try {
    screening = resolveComplianceSettings(file.compliance);
  } catch (error) {
    return refused(file, [(error as Error).message]);
  }
  const base: Omit<TargetRequest, 'token'> = {
    screening,
    chainId,
    infra,
    deployer,
    attester,
    previousAttester,
    authorizers: options.authorizers?.length ? options.authorizers : (file.authorizers ?? []),
    existingRegistry: file.contracts.complianceRegistry ?? null,
    initialPrice: options.initialPrice ?? DEFAULT_INITIAL_PRICE,
    pool: file.pool,
    market: file,
    seed: options.seed
      ? {
          seeder: seederWallet.address,
          weth: options.seed.weth ?? DEFAULT_SEED_WETH,
          token: options.seed.token,
          sessionSeconds: options.seed.sessionSeconds ?? SEED_SESSION_SECONDS,
        }
      : null,
  };
  const token = await resolveToken(
    rpc,
    file,
    options.token,
    () =>
      predictOurContracts({
        create2Deployer: infra.create2Deployer,
        poolManager: infra.poolManager,
        weth: infra.weth,
        deployer,
        attester,
      }).testToken.address,
    problems,
  );
  if (!token) return refused(file, problems);
  let target: DeploymentTarget;
  try {
    target = resolveDeploymentTarget({ token, ...base });
  } catch (error) {
    return refused(file, [(error as Error).message]);
  }
  if (BigInt(target.token.address) <= BigInt(infra.weth))
    return refused(file, [
      `the token ${target.token.address} sorts below WETH ${infra.weth}: WETH must be token0 of the pool`,
    ]);
  const plan = planDeployment(target, await readDeploymentState(rpc, target));
  const planned = describe(plan);
  if (plan.problems.length > 0)
    return refused(file, plan.problems, { target, planned, notes: plan.notes });

  // 3. The signers can pay for it.
  const fees = await currentFees(rpc);
  const cost = planCost(plan.steps, fees.maxFeePerGas);
  const sameSigner = seederWallet.address === deployer;
  const needs: Array<[string, string, bigint]> = sameSigner
    ? [['deployer', deployer, cost.deployer + cost.seeder]]
    : [
        ['deployer', deployer, cost.deployer],
        ['seeder', seederWallet.address, cost.seeder],
      ];
  for (const [role, address, need] of needs) {
    if (need === 0n) continue;
    const balance = await balanceOf(rpc, address);
    if (balance < need)
      problems.push(
        `the ${role} ${address} holds ${balance} wei; the ${plan.steps.length} remaining steps need about ${need} wei at ${fees.maxFeePerGas} wei/gas`,
      );
  }
  if (problems.length > 0)
    return refused(file, problems, { target, planned, notes: plan.notes, estimatedCost: cost });

  // 4. Send what is missing, one transaction at a time, recording each.
  const sendOptions = {
    pollIntervalMs: options.pollIntervalMs ?? DEFAULT_POLL_MS,
    receiptTimeoutMs: options.receiptTimeoutMs ?? DEFAULT_RECEIPT_TIMEOUT_MS,
  };
  const deployerSender = new TransactionSender(rpc, deployerWallet, chainId, sendOptions);
  const seederSender = sameSigner
    ? deployerSender
    : new TransactionSender(rpc, seederWallet, chainId, sendOptions);
  const executed: ExecutedStep[] = [];
  let current = file;
  const record = (
    transactions: Record<string, string>,
    block: number | null,
    codeNow: boolean,
    sqrtPriceX96: bigint | null = null,
  ) => {
    const update: DeploymentUpdate = {
      create2Deployer: infra.create2Deployer,
      complianceRegistry: codeNow ? target.contracts.complianceRegistry.address : null,
      complianceHook: codeNow ? target.contracts.complianceHook.address : null,
      token: codeNow ? target.token : null,
      deployer,
      attester,
      authorizers: target.authorizers,
      block,
      sqrtPriceX96: sqrtPriceX96?.toString() ?? null,
      transactions,
      market: codeNow ? recordedMarket(current, target) : null,
    };
    return recordDeployment(current, update);
  };
  for (const step of plan.steps) {
    const sender = step.from === 'deployer' ? deployerSender : seederSender;
    const mined = await sender.send(step);
    const done: ExecutedStep = {
      step: step.step,
      description: step.description,
      from: sender.address,
      transactionHash: mined.hash,
      blockNumber: mined.blockNumber,
      gasUsed: mined.gasUsed,
      fee: mined.gasUsed * mined.effectiveGasPrice,
    };
    executed.push(done);
    current = record({ [step.step]: mined.hash }, mined.blockNumber, false);
    await options.onProgress?.(current, done);
  }

  // 5. Nothing may be left: the same planner, on the chain as it is now, plans no step.
  const after = await readDeploymentState(rpc, target);
  const left = planDeployment(target, after);
  if (left.steps.length > 0 || left.problems.length > 0)
    throw new Error(
      `the deployment is incomplete after its run: ${[...left.problems, ...left.steps.map((s) => s.description)].join('; ')}`,
    );
  // The price the pool was initialized at: recorded when this run initialized it (a later swap
  // moves the pool's price; the record keeps the initial one).
  const initialized = plan.steps.some((s) => s.step === 'poolInitialize');
  current = record({}, null, true, initialized ? plan.sqrtPriceX96 : null);
  return {
    outcome: executed.length > 0 ? 'deployed' : 'nothing-to-do',
    problems: [],
    notes: plan.notes,
    planned,
    executed,
    file: current,
    target,
    estimatedCost: cost,
    pool: { sqrtPriceX96: after.pool.sqrtPriceX96, liquidity: after.pool.liquidity },
  };
}
