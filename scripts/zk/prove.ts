/**
 * Mints a compliance credential for a wallet with the (devnet) issuer key and proves it.
 *
 *   npm run zk:prove -- --wallet 0x... [--issuer-key 0x<32 bytes>] [--secret <decimal>]
 *
 * stdout: the body of POST /verify, `{ walletAddress, proof, publicSignals }` (JSON).
 * stderr: nullifier, holder secret (reuse it with --secret to reproduce the same nullifier) and timing.
 */
import { parseArgs } from 'node:util';

import { isEvmAddress } from '../../src/compliance/zk/field';
import { generateComplianceProof } from '../../src/compliance/zk/proof-generator';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      wallet: { type: 'string' },
      'issuer-key': { type: 'string' },
      secret: { type: 'string' },
    },
  });
  if (!isEvmAddress(values.wallet)) {
    throw new Error(
      'usage: npm run zk:prove -- --wallet 0x<40 hex> [--issuer-key 0x<64 hex>] [--secret <decimal>]',
    );
  }
  const started = Date.now();
  const result = await generateComplianceProof({
    wallet: values.wallet,
    issuerPrivateKey: values['issuer-key'] ?? process.env.ZK_ISSUER_PRIVATE_KEY,
    credentialSecret: values.secret,
  });
  const body = {
    walletAddress: values.wallet,
    proof: result.proof,
    publicSignals: result.publicSignals,
  };
  process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
  process.stderr.write(
    `[zk:prove] nullifier ${result.nullifier}\n[zk:prove] credentialSecret ${result.credentialSecret}\n` +
      `[zk:prove] proved in ${Date.now() - started} ms\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`[zk:prove] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
