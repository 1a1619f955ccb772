import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import pLimit from 'p-limit';
import { AuthConfig } from '../../config/auth.config';

/**
 * argon2id runs on libuv's small thread pool (4 threads by default), which file and DNS work
 * share: a burst of logins would queue everything behind it. At most ARGON2_CONCURRENCY run at
 * once; the rest wait in line here, not in the pool.
 */
@Injectable()
export class Argon2Gate {
  private readonly limit: ReturnType<typeof pLimit>;

  constructor(config: AuthConfig) {
    this.limit = pLimit(config.argon2Concurrency);
  }

  verify(hash: string, password: string): Promise<boolean> {
    return this.limit(() => argon2.verify(hash, password).catch(() => false));
  }

  hash(password: string, options: Parameters<typeof argon2.hash>[1]): Promise<string> {
    return this.limit(() => argon2.hash(password, { ...options, raw: false }));
  }

  get waiting(): number {
    return this.limit.pendingCount;
  }
}
