import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ComplianceKeys } from '../compliance-keys';
import { Groth16VerifierPool, type Groth16Proof } from '../zk';

/** The Groth16 pairing check in worker threads (ZK_VERIFY_THREADS; 0 = on the event loop). */
@Injectable()
export class ProofVerifierService implements OnApplicationShutdown {
  private readonly pool: Groth16VerifierPool;

  constructor(keys: ComplianceKeys) {
    this.pool = new Groth16VerifierPool(keys.verificationKey, keys.zkVerifyThreads);
  }

  verify(publicSignals: string[], proof: Groth16Proof): Promise<boolean> {
    return this.pool.verify(publicSignals, proof);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.close();
  }
}
