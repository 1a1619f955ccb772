/**
 * The devnet's Ethereum Attestation Service, as Base has it: EAS and its SchemaRegistry at the
 * OP-Stack predeploy addresses, an attestation indexer with Coinbase's interface that only an
 * INDEXER_ROLE may write, and Verified-Account- and Verified-Country-shaped schemas guarded by a
 * resolver that accepts only the test attester's attestations and indexes them (issue 52: as
 * coinbase/verifications' resolver and indexer do on Base, nobody else can attest the schemas or
 * move the index's pointer).
 *
 * A predeploy cannot be created at its address, so each contract is deployed normally (its
 * constructor fills immutables, embedded in the runtime code, and a few storage slots), then its
 * runtime code and low storage slots are copied to the predeploy address (hardhat_setCode /
 * hardhat_setStorageAt). EAS takes the registry's predeploy address as its constructor argument.
 */
import { getAddress, id, InterfaceAbi, zeroPadValue, toBeHex } from 'ethers';
import { ATTESTATION_INDEXER, SCHEMA_REGISTRY } from '../abi/eas';
import { schemaUid } from '../encoding/attestations';
import { loadEasArtifact, loadOwnArtifact } from './artifacts';
import * as C from './constants';
import type { NetworkCompliance } from '../network/network.types';
import type { Deployer, Eip1193 } from './devnet-deployer';

/** AttestationIndexer.INDEXER_ROLE: Coinbase's role id (keccak256 of its name). */
export const INDEXER_ROLE = id('cbattestations.attestationindexer.indexer');

export interface DevnetEas {
  eas: { eas: string; schemaRegistry: string; indexer: string };
  attester: string;
  /** The resolver guarding both schemas (allowlist: the test attester). */
  resolver: string;
  schemas: { account: string; country: string };
}

async function copyToPredeploy(rpc: Eip1193, from: string, to: string): Promise<void> {
  const code = (await rpc.request({ method: 'eth_getCode', params: [from, 'latest'] })) as string;
  await rpc.request({ method: 'hardhat_setCode', params: [to, code] });
  for (let slot = 0; slot < C.PREDEPLOY_STORAGE_SLOTS; slot++) {
    const key = toBeHex(slot);
    const value = (await rpc.request({
      method: 'eth_getStorageAt',
      params: [from, key, 'latest'],
    })) as string;
    if (BigInt(value) !== 0n)
      await rpc.request({
        method: 'hardhat_setStorageAt',
        params: [to, zeroPadValue(key, 32), zeroPadValue(value, 32)],
      });
  }
}

export async function deployEas(rpc: Eip1193, d: Deployer, accounts: string[]): Promise<DevnetEas> {
  const attester = getAddress(accounts[C.TEST_ATTESTER_ACCOUNT_INDEX]);
  const registry = await d.deploy(attester, loadEasArtifact('SchemaRegistry'));
  await copyToPredeploy(rpc, registry, C.SCHEMA_REGISTRY_PREDEPLOY);
  const eas = await d.deploy(attester, loadEasArtifact('EAS'), [C.SCHEMA_REGISTRY_PREDEPLOY]);
  await copyToPredeploy(rpc, eas, C.EAS_PREDEPLOY);
  const indexer = await d.deploy(attester, loadOwnArtifact('AttestationIndexer'), [
    C.EAS_PREDEPLOY,
    attester,
  ]);
  const resolver = await d.deploy(attester, loadOwnArtifact('AttesterResolver'), [
    C.EAS_PREDEPLOY,
    indexer,
    attester,
    [attester],
  ]);
  const indexerAbi = ATTESTATION_INDEXER.fragments as unknown as InterfaceAbi;
  await d.call(attester, indexer, indexerAbi, 'grantRole', [INDEXER_ROLE, resolver]);
  const abi = SCHEMA_REGISTRY.fragments as unknown as InterfaceAbi;
  for (const schema of [C.VERIFIED_ACCOUNT_SCHEMA, C.VERIFIED_COUNTRY_SCHEMA])
    await d.call(attester, C.SCHEMA_REGISTRY_PREDEPLOY, abi, 'register', [schema, resolver, true]);
  return {
    eas: {
      eas: getAddress(C.EAS_PREDEPLOY),
      schemaRegistry: getAddress(C.SCHEMA_REGISTRY_PREDEPLOY),
      indexer,
    },
    attester,
    resolver,
    schemas: {
      account: schemaUid(C.VERIFIED_ACCOUNT_SCHEMA, resolver, true),
      country: schemaUid(C.VERIFIED_COUNTRY_SCHEMA, resolver, true),
    },
  };
}

/** Source names of the devnet's test attester (the network file's attestationSources). */
export const DEVNET_SOURCE_NAMES = { account: 'verified-account', country: 'verified-country' };

export function devnetComplianceSection(e: DevnetEas): NetworkCompliance {
  return {
    eas: e.eas,
    attestationSources: [
      {
        name: DEVNET_SOURCE_NAMES.account,
        attester: e.attester,
        schema: e.schemas.account,
        kind: 'account',
      },
      {
        name: DEVNET_SOURCE_NAMES.country,
        attester: e.attester,
        schema: e.schemas.country,
        kind: 'country',
      },
    ],
  };
}

/** The start banner's lines for the attestation contracts and sources. */
export function easBannerLines(compliance: NetworkCompliance): string[] {
  if (!compliance.eas) return [];
  const { eas, schemaRegistry, indexer } = compliance.eas;
  return [
    `  ${'EAS'.padEnd(20)} ${eas}`,
    `  ${'SchemaRegistry'.padEnd(20)} ${schemaRegistry}`,
    `  ${'attestationIndexer'.padEnd(20)} ${indexer}`,
    ...compliance.attestationSources.map(
      (s) =>
        `  source ${s.name}: attester ${s.attester}, schema ${s.schema} (npm run cli -- attest)`,
    ),
  ];
}
