import { join } from 'node:path';
import Piscina from 'piscina';

import type { Groth16Proof, Groth16VerificationKey } from './snarkjs';
import { inlineGroth16Check, type Groth16Check } from './verify-compliance-proof';

/**
 * Groth16 pairing checks off the event loop: a piscina pool of worker threads, each with its own
 * single-threaded curve (a check is ~tens of ms of CPU that would otherwise stall every other
 * request; bench/verify.ts measures it). `threads: 0` verifies on the calling thread.
 */
export class Groth16VerifierPool {
  private readonly pool?: Piscina;
  private readonly inline?: Groth16Check;

  constructor(verificationKey: Groth16VerificationKey, threads: number) {
    if (threads === 0) {
      this.inline = inlineGroth16Check(verificationKey);
      return;
    }
    this.pool = new Piscina({
      filename: join(__dirname, 'groth16-verify.worker.js'),
      workerData: { verificationKey },
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: Infinity,
    });
  }

  get threads(): number {
    return this.pool ? this.pool.options.maxThreads : 0;
  }

  verify(publicSignals: string[], proof: Groth16Proof): Promise<boolean> {
    if (this.inline) return this.inline(publicSignals, proof);
    return this.pool!.run({ publicSignals, proof }) as Promise<boolean>;
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
  }
}
