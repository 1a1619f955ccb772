import { selectorOf } from '../../chain/abi/selectors';
import { Injectable } from '@nestjs/common';
import { getAddress } from 'ethers';
import { ATTESTATION_INDEXER, EAS } from '../../chain/abi/eas';
import { MULTICALL3 } from '../../chain/abi/multicall3';
import { ChainReaderService } from '../../chain/chain-reader.service';
import { AttestationRecord, decodeAttestation, ZERO_UID } from '../../chain/encoding/attestations';
import { readWord } from '../../chain/encoding/abi-words';
import { NetworkService } from '../../chain/network/network.service';
import type { AttestationSource, NetworkCompliance } from '../../chain/network/network.types';
import { judgeAttestation, SourceFinding } from './attestation-judge';

/**
 * Reads a wallet's attestations of the network's accepted sources: the indexer's latest uid per
 * source schema in ONE Multicall3 eth_call, then every attestation found and the chain's time in
 * a second one. What an attestation says is read from EAS, never from the indexer.
 */
@Injectable()
export class AttestationReaderService {
  constructor(
    private readonly reader: ChainReaderService,
    private readonly network: NetworkService,
  ) {}

  get compliance(): NetworkCompliance {
    return this.network.definition.compliance;
  }

  get sources(): AttestationSource[] {
    return this.compliance.attestationSources;
  }

  /** Each source's finding for `wallet` (empty when the network accepts no attestation source). */
  async findingsFor(wallet: string, sources = this.sources): Promise<SourceFinding[]> {
    return (await this.read(wallet, sources)).findings;
  }

  /** The findings and the chain's time they were judged at (unix s; null when nothing was read). */
  async read(
    wallet: string,
    sources = this.sources,
  ): Promise<{ findings: SourceFinding[]; chainTime: number | null }> {
    const eas = this.compliance.eas;
    if (sources.length === 0 || !eas?.indexer) return { findings: [], chainTime: null };
    const walletAddress = getAddress(wallet);
    const indexer = eas.indexer;
    const lookups = await this.reader.aggregate3(
      sources.map((s) => ({
        target: indexer,
        allowFailure: true,
        callData: ATTESTATION_INDEXER.encodeFunctionData('getAttestationUid', [
          walletAddress,
          s.schema,
        ]),
      })),
    );
    const uids = lookups.map((r) =>
      r.success && r.returnData.length >= 66 ? r.returnData.slice(0, 66) : ZERO_UID,
    );
    const { records, chainTime } = await this.readAttestations(uids);
    return {
      findings: sources.map((s, i) => judgeAttestation(s, walletAddress, records[i], chainTime)),
      chainTime,
    };
  }

  /**
   * For the screening watcher (issue 41): true when EAS shows the attestation revoked (or no
   * longer there). One eth_call.
   */
  async isAttestationRevoked(uid: string): Promise<boolean> {
    return (await this.revokedAttestations([uid])).has(uid);
  }

  /**
   * The uids among these that EAS shows revoked (or no longer there), all read in ONE Multicall3
   * eth_call whatever their number: the screening watcher asks about every screened session at
   * once.
   */
  async revokedAttestations(uids: readonly string[]): Promise<Set<string>> {
    const distinct = [...new Set(uids)];
    if (distinct.length === 0) return new Set();
    const { records } = await this.readAttestations(distinct);
    return new Set(
      distinct.filter((uid, i) => {
        const record = records[i];
        return !record || BigInt(record.uid) === 0n || record.revocationTime !== 0;
      }),
    );
  }

  /** EAS.getAttestation for each non-zero uid and the block timestamp, in ONE eth_call. */
  private async readAttestations(
    uids: string[],
  ): Promise<{ records: (AttestationRecord | null)[]; chainTime: number }> {
    const eas = this.compliance.eas!.eas;
    const wanted = uids.filter((u) => BigInt(u) !== 0n);
    const [clock, ...results] = await this.reader.aggregate3([
      {
        target: this.network.contracts.multicall3,
        allowFailure: false,
        callData: TIMESTAMP,
      },
      ...wanted.map((uid) => ({
        target: eas,
        allowFailure: true,
        callData: EAS.encodeFunctionData('getAttestation', [uid]),
      })),
    ]);
    const byUid = new Map<string, AttestationRecord | null>();
    wanted.forEach((uid, i) => {
      const r = results[i];
      byUid.set(uid, r.success ? decodeAttestation(r.returnData) : null);
    });
    return {
      records: uids.map((u) => byUid.get(u) ?? null),
      chainTime: Number(readWord(clock.returnData, 0)),
    };
  }
}

const TIMESTAMP = selectorOf(MULTICALL3, 'getCurrentBlockTimestamp');
