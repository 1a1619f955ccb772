/**
 * Issue 52: are the network file's attestation sources guarded on the chain as Coinbase's are on
 * Base? Each source's schema should be registered with a resolver that lets only allowed
 * attesters attest (CoinbaseVerificationsResolver's `allowedAttesters`, the devnet's
 * AttesterResolver), the configured attester among them; the indexer should be written only by
 * an INDEXER_ROLE. What is not is a WARNING, not a mismatch: the service reads only the accepted
 * attester's own attestations (its index of EAS `Attested` events), so an unguarded schema or an
 * open indexer cannot change what a source says; but anyone may then attest the schema, and the
 * indexer's pointer shows whatever was indexed last. Two Multicall3 eth_calls: the schemas and
 * the indexer's role, then each resolver's allowlist. Pure but for `send`.
 */
import { getAddress, isAddress, ZeroAddress } from 'ethers';
import { ALLOWLIST_RESOLVER, ATTESTATION_INDEXER, SCHEMA_REGISTRY } from '../abi/eas';
import type { Call3Result } from '../encoding/multicall';
import type { NetworkFile } from './network-definition';
import { fail, NetworkCheck, pass, Probe, warn } from './network-probes';

export type BatchRead = (probes: Probe[]) => Promise<Call3Result[] | undefined>;

const BYTES32 = /^0x[0-9a-fA-F]{64}$/;

export async function attestationSourceChecks(
  file: NetworkFile,
  read: BatchRead,
): Promise<NetworkCheck[]> {
  const eas = file.compliance?.eas;
  const sources = (file.compliance?.attestationSources ?? []).filter(
    (s) => s && BYTES32.test(s.schema ?? '') && isAddress(s.attester ?? ''),
  );
  if (!eas || sources.length === 0 || !isAddress(eas.schemaRegistry ?? '')) return [];
  const field = (i: number) => `compliance.attestationSources[${i}].schema`;
  const indexer = eas.indexer && isAddress(eas.indexer) ? getAddress(eas.indexer) : null;
  const first = await read([
    ...sources.map((s) => schemaProbe(eas.schemaRegistry, s.schema)),
    ...(indexer ? [roleProbe(indexer)] : []),
  ]);
  if (!first) return [];
  const checks: NetworkCheck[] = [];
  const guarded: Array<{ i: number; resolver: string; attester: string }> = [];
  sources.forEach((s, i) => {
    const record = decodeSchema(first[i]);
    if (!record || BigInt(record.uid) === 0n)
      checks.push(
        fail(field(i), `${s.schema} is not registered in the SchemaRegistry ${eas.schemaRegistry}`),
      );
    else if (record.resolver === ZeroAddress)
      checks.push(
        warn(
          field(i),
          `${s.name}: the schema is not guarded (registered without a resolver): anyone may attest it. The service accepts only ${getAddress(s.attester)}'s attestations (its own index of Attested events), but the indexer's pointer may name anyone's. Register the source's schema with a resolver that allows only its attester (as Coinbase's are on Base).`,
        ),
      );
    else guarded.push({ i, resolver: record.resolver, attester: getAddress(s.attester) });
  });
  if (indexer) checks.push(judgeRole(indexer, first[sources.length]));
  if (guarded.length === 0) return checks;
  const second = await read(guarded.map((g) => allowlistProbe(g.resolver, g.attester)));
  guarded.forEach((g, k) => {
    const answer = second?.[k];
    const name = sources[g.i].name;
    if (!answer?.success || answer.returnData.length < 66)
      checks.push(
        warn(
          field(g.i),
          `${name}: the schema's resolver ${g.resolver} does not answer allowedAttesters(address): it cannot be checked that only ${g.attester} may attest`,
        ),
      );
    else if (BigInt(answer.returnData.slice(0, 66)) === 1n)
      checks.push(
        pass(
          field(g.i),
          `${name}: guarded by the resolver ${g.resolver}, which allows ${g.attester}`,
        ),
      );
    else
      checks.push(
        warn(
          field(g.i),
          `${name}: the schema's resolver ${g.resolver} does not allow ${g.attester}: no new attestation of this source can be made`,
        ),
      );
  });
  return checks;
}

function schemaProbe(registry: string, schema: string): Probe {
  return {
    needs: [],
    target: getAddress(registry),
    callData: SCHEMA_REGISTRY.encodeFunctionData('getSchema', [schema]),
    judge: () => pass('compliance.eas.schemaRegistry', 'answers getSchema'),
  };
}

function roleProbe(indexer: string): Probe {
  return {
    needs: [],
    target: indexer,
    callData: ATTESTATION_INDEXER.encodeFunctionData('INDEXER_ROLE'),
    judge: () => pass('compliance.eas.indexer', 'answers INDEXER_ROLE'),
  };
}

function allowlistProbe(resolver: string, attester: string): Probe {
  return {
    needs: [],
    target: resolver,
    callData: ALLOWLIST_RESOLVER.encodeFunctionData('allowedAttesters', [attester]),
    judge: () => pass('compliance.eas', 'answers allowedAttesters'),
  };
}

function decodeSchema(answer: Call3Result | undefined): { uid: string; resolver: string } | null {
  if (!answer?.success) return null;
  try {
    const [record] = SCHEMA_REGISTRY.decodeFunctionResult(
      'getSchema',
      answer.returnData,
    ) as unknown as [{ uid: string; resolver: string }];
    return { uid: record.uid, resolver: getAddress(record.resolver) };
  } catch {
    return null;
  }
}

function judgeRole(indexer: string, answer: Call3Result | undefined): NetworkCheck {
  return answer?.success && answer.returnData.length >= 66
    ? pass('compliance.eas.indexer', `${indexer} is written only by its INDEXER_ROLE`)
    : warn(
        'compliance.eas.indexer',
        `${indexer} does not answer INDEXER_ROLE(): anyone may be able to move its pointers (the service does not rely on them: it keeps its own index of the accepted attesters' attestations)`,
      );
}
