import { DEVNET_ISSUER_PUBLIC_KEY } from './devnet-issuer';
import { Groth16VerifierPool } from './groth16-verifier-pool';
import { mintStandaloneCredential, proveCredential } from './proof-generator';
import { loadComplianceVerificationKey } from './zk-artifacts';

describe(Groth16VerifierPool.name, () => {
  const vk = loadComplianceVerificationKey();
  let proof: Awaited<ReturnType<typeof proveCredential>>;

  beforeAll(async () => {
    const credential = await mintStandaloneCredential({
      wallet: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    });
    proof = await proveCredential(credential, { challenge: '5' });
    expect(proof.publicSignals[1]).toBe(DEVNET_ISSUER_PUBLIC_KEY.x);
  }, 120_000);

  it.each([0, 2])(
    'verifies real proofs with %i worker thread(s) and refuses tampered ones',
    async (threads) => {
      const pool = new Groth16VerifierPool(vk, threads);
      try {
        expect(pool.threads).toBe(threads);
        expect(pool.runningThreads).toBe(0); // none until the first proof
        const tampered = [...proof.publicSignals];
        tampered[4] = '6'; // another challenge
        const results = await Promise.all([
          pool.verify(proof.publicSignals, proof.proof),
          pool.verify(tampered, proof.proof),
          pool.verify(proof.publicSignals, { ...proof.proof, pi_a: ['1', '1', '1'] }),
          pool.verify(proof.publicSignals, proof.proof),
        ]);
        expect(results).toEqual([true, false, false, true]);
        expect(pool.runningThreads).toBe(threads);
      } finally {
        await pool.close();
      }
    },
    60_000,
  );
});
