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
import { attestationOf, judgeAttestation, SourceFinding } from './attestation-judge';
import { AttestationIndex } from './attestation-index.service';

/**
 * Reads a wallet's attestations of the network's accepted sources (issue 52: nobody but a
 * source's attester can change what it says about a wallet). Per source, the candidates are the
 * network indexer's pointer (Coinbase's interface: the latest uid by recipient and schema, ONE
 * Multicall3 eth_call for every source) and the latest attestation of the source's own attester
 * in the service's index (AttestationIndex: EAS `Attested` events, one SELECT); every candidate
 * and the chain's time are then read from EAS in a second eth_call. The source's finding is its
 * attester's latest attestation among them (by EAS time), so a pointer moved to another
 * attester's attestation, or back to an older one, changes nothing; only when the attester has
 * none is the pointer's own (refused) attestation reported. What an attestation says is read
 * from EAS, never from an index.
 */
@Injectable()
export class AttestationReaderService {
  constructor(
    private readonly reader: ChainReaderService,
    private readonly network: NetworkService,
    private readonly index: AttestationIndex,
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

  /**
   * The findings and the chain's time they were judged at (unix s; null when nothing was read).
   * `fresh`: bring the service's index to the chain's head first (activations, dry runs).
   */
  async read(
    wallet: string,
    sources = this.sources,
    options: { fresh?: boolean } = {},
  ): Promise<{ findings: SourceFinding[]; chainTime: number | null }> {
    if (sources.length === 0 || !this.compliance.eas) return { findings: [], chainTime: null };
    const walletAddress = getAddress(wallet);
    if (options.fresh) await this.index.upToDate();
    const [pointers, indexed] = await Promise.all([
      this.pointers(walletAddress, sources),
      this.index.latestFor(walletAddress, sources),
    ]);
    const candidates = sources.map((s, i) =>
      [pointers[i], indexed.get(s.name)].filter((u): u is string => !!u && BigInt(u) !== 0n),
    );
    const uids = [...new Set(candidates.flat().map((u) => u.toLowerCase()))];
    const { records, chainTime } = await this.readAttestations(uids);
    const byUid = new Map(uids.map((uid, i) => [uid, records[i]]));
    return {
      findings: sources.map((s, i) => {
        const found = candidates[i].map((u) => byUid.get(u.toLowerCase()) ?? null);
        return judgeAttestation(
          s,
          walletAddress,
          attestationOf(s, walletAddress, found),
          chainTime,
        );
      }),
      chainTime,
    };
  }

  /** The network indexer's latest uid per source schema (zero without an indexer): one eth_call. */
  private async pointers(wallet: string, sources: AttestationSource[]): Promise<string[]> {
    const indexer = this.compliance.eas?.indexer;
    if (!indexer) return sources.map(() => ZERO_UID);
    const lookups = await this.reader.aggregate3(
      sources.map((s) => ({
        target: indexer,
        allowFailure: true,
        callData: ATTESTATION_INDEXER.encodeFunctionData('getAttestationUid', [wallet, s.schema]),
      })),
    );
    return lookups.map((r) =>
      r.success && r.returnData.length >= 66 ? r.returnData.slice(0, 66) : ZERO_UID,
    );
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
