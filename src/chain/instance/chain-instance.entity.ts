import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The chain instance the database's chain-bound rows belong to, per chain id: its genesis block
 * hash. The embedded devnet starts a new chain on every start (a new genesis timestamp, so a new
 * hash); a public network keeps its genesis for ever.
 */
@Entity('chain_instances')
export class ChainInstance {
  @PrimaryColumn({ name: 'chain_id', type: 'integer' })
  chainId: number;

  @Column({ name: 'genesis_hash', type: 'varchar', length: 66 })
  genesisHash: string;

  /** When this service first saw this instance. */
  @Column({ name: 'since', type: Date })
  since: Date;

  /** The instance before it, whose sessions, positions and relayed transactions were cleared. */
  @Column({ name: 'previous_genesis_hash', type: 'varchar', length: 66, nullable: true })
  previousGenesisHash: string | null;
}
