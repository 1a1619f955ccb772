import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { CredentialRoot } from './credential-root.entity';

/**
 * Roots of the issuer's credential tree. They arrive over the operator path (the CLI, with the
 * service's database credentials: `credentials issue|revoke|push-root`), never over the public API.
 */
@Injectable()
export class CredentialRootsService {
  constructor(
    @InjectRepository(CredentialRoot) private readonly roots: Repository<CredentialRoot>,
  ) {}

  /** `retiresPrevious`: a revocation, after which the previous root no longer verifies. */
  async push(root: string, retiresPrevious = false): Promise<void> {
    await this.roots.insert({ root, retiresPrevious });
  }

  /** The current root and, unless a revocation retired it, the one before it (latest first). */
  async accepted(): Promise<string[]> {
    const [current, previous] = await this.roots.find({ order: { id: 'DESC' }, take: 2 });
    if (!current) return [];
    return previous && !current.retiresPrevious ? [current.root, previous.root] : [current.root];
  }
}
