/**
 * A network as it was before hook v2 (or v3): our registry, the test token, ComplianceHook v1 (the
 * fixture from git history, test/fixtures/hook-v1) or v2 (contracts/src/ComplianceHook.sol) at a
 * flagged CREATE2 address, its pool initialized and a full-range position minted by `seeder`.
 * Built with the deployment's own target, planner and sender, with only the hook swapped for the
 * old one (and v3's authorizer / enforcer wiring left out), so `cli deploy` afterwards sees
 * exactly what an operator's v1 or v2 network holds.
 */
import { join } from 'node:path';
import type { BaseWallet } from 'ethers';
import {
  initCode,
  LoadedArtifact,
  loadOwnArtifact,
  readJson,
} from '../../src/chain/deployment/contract-artifacts';
import { mineSalt } from '../../src/chain/deployment/create2-addresses';
import {
  CREATE2_DEPLOYER_ADDRESS,
  HOOK_FLAG_MASK,
  HOOK_FLAGS_V2,
} from '../../src/chain/deployment/deployment-constants';
import { planDeployment } from '../../src/chain/deployment/deployment-plan';
import { chainIdOf, Eip1193, TransactionSender } from '../../src/chain/deployment/deployment-rpc';
import { readDeploymentState } from '../../src/chain/deployment/deployment-state';
import { resolveDeploymentTarget } from '../../src/chain/deployment/deployment-target';
import { infrastructureOf, recordDeployment } from '../../src/chain/deployment/network-file-io';
import { NetworkFile, resolveComplianceSettings } from '../../src/chain/network/network-definition';

/** v1's permissions: BEFORE_ADD_LIQUIDITY | BEFORE_SWAP (removals were not hooked). */
export const HOOK_V1_FLAGS = (1n << 11n) | (1n << 7n);

export function hookV1Artifact(): LoadedArtifact {
  const json = readJson(join(__dirname, '..', 'fixtures', 'hook-v1', 'ComplianceHookV1.json'));
  return { abi: json.abi as unknown[], bytecode: json.bytecode as string };
}

export async function deployHookV1Network(options: {
  rpc: Eip1193;
  file: NetworkFile;
  deployer: BaseWallet;
  seeder: BaseWallet;
  /** The old hook's version: 1 (default) or 2. */
  version?: 1 | 2;
}): Promise<{ file: NetworkFile; hook: string }> {
  const { rpc, file, deployer, seeder } = options;
  const version = options.version ?? 1;
  const chainId = await chainIdOf(rpc);
  const { infra, problems } = infrastructureOf(file, CREATE2_DEPLOYER_ADDRESS);
  if (problems.length > 0) throw new Error(problems.join('; '));
  const current = resolveDeploymentTarget({
    chainId,
    infra,
    deployer: deployer.address,
    attester: deployer.address,
    previousAttester: null,
    existingRegistry: null,
    screening: resolveComplianceSettings(file.compliance),
    token: { kind: 'test' },
    initialPrice: '3000',
    pool: file.pool,
    seed: { seeder: seeder.address, weth: '0.1', sessionSeconds: 3_600 },
  });
  const screening = resolveComplianceSettings(file.compliance);
  const code =
    version === 1
      ? initCode(hookV1Artifact(), [
          infra.poolManager,
          current.contracts.complianceRegistry.address,
          deployer.address,
        ])
      : initCode(loadOwnArtifact('ComplianceHook'), [
          infra.poolManager,
          current.contracts.complianceRegistry.address,
          deployer.address,
          screening.sanctionsOracle ?? '0x0000000000000000000000000000000000000000',
          screening.exitPolicy === 'freeze',
        ]);
  const flags = version === 1 ? HOOK_V1_FLAGS : HOOK_FLAGS_V2;
  const hook = mineSalt(
    infra.create2Deployer,
    code,
    (address) => (BigInt(address) & HOOK_FLAG_MASK) === flags,
  );
  const target = {
    ...current,
    contracts: { ...current.contracts, complianceHook: hook },
    poolKey: { ...current.poolKey, hooks: hook.address },
  };
  const plan = planDeployment(target, await readDeploymentState(rpc, target));
  if (plan.problems.length > 0) throw new Error(plan.problems.join('; '));
  // The old hooks have no authorizers nor enforcers: hook v3's wiring is left out.
  plan.steps = plan.steps.filter(
    (s) => !s.step.startsWith('hookAuthorizer:') && s.step !== 'hookEnforcer',
  );
  const sendOptions = { pollIntervalMs: 0, receiptTimeoutMs: 60_000 };
  const senders = {
    deployer: new TransactionSender(rpc, deployer, chainId, sendOptions),
    seeder: new TransactionSender(rpc, seeder, chainId, sendOptions),
  };
  const transactions: Record<string, string> = {};
  let block: number | null = null;
  for (const step of plan.steps) {
    const mined = await senders[step.from].send(step);
    transactions[step.step] = mined.hash;
    block ??= mined.blockNumber;
  }
  const recorded = recordDeployment(file, {
    create2Deployer: infra.create2Deployer,
    complianceRegistry: target.contracts.complianceRegistry.address,
    complianceHook: hook.address,
    token: target.token,
    deployer: deployer.address,
    attester: deployer.address,
    block,
    sqrtPriceX96: plan.sqrtPriceX96.toString(),
    transactions,
  });
  return { file: recorded, hook: hook.address };
}
