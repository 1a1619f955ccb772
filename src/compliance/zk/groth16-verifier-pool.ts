import { join } from 'node:path';
import Piscina from 'piscina';

import type { Groth16Proof, Groth16VerificationKey } from './snarkjs';
import { inlineGroth16Check, type Groth16Check } from './verify-compliance-proof';

/**
 * Groth16 pairing checks off the event loop: a piscina pool of worker threads, each with its own
 * single-threaded curve (a check is ~tens of ms of CPU that would otherwise stall every other
 * request; bench/verify.ts measures it). `threads: 0` verifies on the calling thread.
 *
 * The threads start with the first proof, not with the service: a worker with its curve holds
 * 20-30 MB, and a service that never verifies a proof (a pure transaction builder) should not carry
 * it (docs/architecture.md, "Why hand-written"). Once started they stay for the life of the pool; the first
 * proof waits for the thread to build its curve (a few hundred ms, once).
 */
export class Groth16VerifierPool {
  private pool?: Piscina;
  private readonly inline?: Groth16Check;

  constructor(
    private readonly verificationKey: Groth16VerificationKey,
    private readonly configuredThreads: number,
  ) {
    if (configuredThreads === 0) this.inline = inlineGroth16Check(verificationKey);
  }

  /** How many worker threads verify proofs (0: the calling thread does). */
  get threads(): number {
    return this.configuredThreads;
  }

  /** Worker threads running now: none until the first proof. */
  get runningThreads(): number {
    return this.pool?.threads.length ?? 0;
  }

  verify(publicSignals: string[], proof: Groth16Proof): Promise<boolean> {
    if (this.inline) return this.inline(publicSignals, proof);
    this.pool ??= new Piscina({
      filename: join(__dirname, 'groth16-verify.worker.js'),
      workerData: { verificationKey: this.verificationKey },
      minThreads: this.configuredThreads,
      maxThreads: this.configuredThreads,
      idleTimeout: Infinity,
    });
    return this.pool.run({ publicSignals, proof }) as Promise<boolean>;
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
  }
}
