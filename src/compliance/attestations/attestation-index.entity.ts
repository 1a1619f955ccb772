import { Column, Entity, PrimaryColumn } from 'typeorm';
import { integerColumn } from '../../common/database/integer-column';

/**
 * Issue 52: the service's own index of EAS attestations, keyed by attester: the latest `Attested`
 * event of each accepted (schema, attester) pair per recipient, read from the chain's logs
 * (AttestationIndex). Only the accepted attester can write a row for its pair, whatever the
 * network's indexer contract points at.
 */
@Entity('attestation_index')
export class AttestationIndexEntry {
  @PrimaryColumn({ name: 'schema_uid', type: 'varchar', length: 66 })
  schemaUid: string;

  /** Checksummed. */
  @PrimaryColumn({ type: 'varchar', length: 42 })
  attester: string;

  /** Checksummed. */
  @PrimaryColumn({ type: 'varchar', length: 42 })
  recipient: string;

  @Column({ type: 'varchar', length: 66 })
  uid: string;

  @Column({ name: 'block_number', type: 'bigint', transformer: integerColumn })
  blockNumber: number;

  @Column({ name: 'log_index', type: 'integer' })
  logIndex: number;
}

/**
 * How far the index has read, for which configuration: `fingerprint` names the EAS contract,
 * the accepted (attester, schema) pairs and the first block; another one starts the index over.
 */
@Entity('attestation_index_state')
export class AttestationIndexState {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  name: string;

  @Column({ type: 'varchar', length: 66 })
  fingerprint: string;

  /** The next block to read. */
  @Column({ name: 'next_block', type: 'bigint', transformer: integerColumn })
  nextBlock: number;
}
