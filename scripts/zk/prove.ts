/**
 * Proves a compliance credential for a challenge and prints the body of POST /verify.
 *
 *   npm run -s cli -- credentials issue --wallet 0x... --out credential.json     (the issuer)
 *   curl ".../verify/challenge?walletAddress=0x..."                               (-> challenge)
 *   npm run -s zk:prove -- --credential credential.json --challenge <decimal> > proof.json
 *
 * stdout: `{ walletAddress, proof, publicSignals }` (JSON). stderr: nullifier and timing.
 * `now` is this machine's clock (the service accepts 5 minutes of skew).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import { parseCredentialFile } from '../../src/compliance/zk/credential-file';
import { parseFieldElement } from '../../src/compliance/zk/field';
import { proveCredential } from '../../src/compliance/zk/proof-generator';

const USAGE = 'usage: npm run zk:prove -- --credential FILE --challenge <decimal>';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { credential: { type: 'string' }, challenge: { type: 'string' } },
  });
  if (!values.credential || parseFieldElement(values.challenge) === null) throw new Error(USAGE);
  const credential = parseCredentialFile(JSON.parse(readFileSync(values.credential, 'utf8')));
  const started = Date.now();
  const result = await proveCredential(credential, { challenge: values.challenge! });
  const body = {
    walletAddress: credential.wallet,
    proof: result.proof,
    publicSignals: result.publicSignals,
  };
  process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
  process.stderr.write(
    `[zk:prove] nullifier ${result.nullifier}\n[zk:prove] proved in ${Date.now() - started} ms\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`[zk:prove] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
