/**
 * The CLI's usage text and argument splitting: dependency-free, so `main.ts` answers `--help` and
 * the standalone commands without loading the app.
 */
export class CliUsageError extends Error {}

export function required(flags: Record<string, string>, name: string): string {
  const value = flags[name];
  if (!value) throw new CliUsageError(`--${name} is required`);
  return value;
}

export const CREDENTIAL_USAGE = `  credentials issue --wallet W [--expires-in SECONDS] --out FILE [--issuer-key-file K]
                                        (demo issuer; K: a registered issuer's private key)
  credentials revoke --wallet W         (empties the wallet's credentials, rotates the root, ends their sessions)
  credentials refresh --credential FILE [--out FILE]   (the credential's Merkle path in today's tree)
  credentials push-root --root DECIMAL [--revocation yes]   (an external issuer's new root;
                                        after a revocation the previous root stops verifying)
  revoke-session --wallet W             (the attester ends the wallet's session on chain)
  attest --kind account|country --wallet W [--country XX] [--expires-in SECONDS]
                                        (devnet: the test attester attests, its resolver indexes; prints the uid)
  attest revoke --uid U                 (devnet: the test attester revokes the attestation)

  issuers list                          (the credential issuers POST /verify accepts, with their keys)
  issuers add --name N --public-key X,Y [--valid-from T] [--valid-until T]
                                        (T: unix seconds or ISO 8601; no restart needed)
  issuers rotate --name N --public-key X,Y [--valid-from T] [--valid-until T]
                                        (retires the current key: its credentials verify until they expire)
  issuers revoke --name N               (its credentials open no new session; ends the open ones)`;

export const USAGE = `Usage: npm run cli -- [--require-database-url] <command> [options]
  create-account --name NAME --email EMAIL --password PASSWORD [--plan free|pro|enterprise]
  set-plan --email EMAIL --plan free|pro|enterprise
  set-rate-limit --email EMAIL --per-minute N   (N = 0 removes the override)
  set-quota --email EMAIL --per-month N         (N = 0 removes the override)
  users reset-mfa --email EMAIL         (removes the user's authenticator and recovery codes: a
                                        lost device; the password alone then signs in; audited)
  audit list [--type T] [--since T] [--limit N]
                                        (the operators' changes, newest first: those of no account
                                        (issuers, sanctions, attester, secrets) and those to an
                                        account (its audit trail has them too); T: unix s or ISO 8601)
${CREDENTIAL_USAGE}
  keys generate [--out-dir D] [--json]  (issuer and attester key pairs, no database or config;
                                        --out-dir writes the private keys to files, mode 0600)
  verify-network --rpc URL --network-file F [--json]
                                        (no database or config: does F describe the chain at URL?
                                        exit 1 with one line per mismatched field)
  deploy --rpc URL --network-file F --deployer-key-file K [--attester ADDRESS]
         [--test-token | --token ADDRESS] [--initial-price 3000] [--seed-liquidity [--seed-weth 0.1]] [--json]
                                        (no database or config: deploys our contracts on the chain
                                        F describes, writes their addresses back into F; resumable)
  sanctions add|remove|list [ADDRESS] [--rpc URL] [--network-file F] [--owner-key-file K]
                                        (the devnets' sanctions oracle, signed by its owner: the key
                                        in K, else devnet account 0; add/remove audited)
  safe create --owners A,B,C --threshold 2 [--salt-nonce N] [--rpc URL] [--from-key-file K] [--json]
                                        (no database or config: a Safe v1.4.1 through the canonical
                                        factory; prints its address; paid by K, else devnet account 0)
  Commands that send to the chain use --rpc, else CHAIN_RPC_URL, else the devnet of the service
  running with this DATA_DIR ($DATA_DIR/devnet.json), else DEVNET_PORT; stderr names the URL.
  migrate                               (database settings only: runs the pending migrations once
                                        and exits; for replicas started with DATABASE_MIGRATIONS=off)
  attester fund --rpc URL --from-key-file F --amount-eth ETH [--to ADDRESS] [--json]
                                        (sends ETH from the key in F to the attester: by default the
                                        configured attester's address; waits until mined)
  attester address [--json]             (the attester's address whatever signs for it: the key, or
                                        the PKCS#11 token's with ATTESTER_SIGNER=pkcs11; the standby's)
  attester keygen [--standby] [--json]  (ATTESTER_SIGNER=pkcs11: the token generates a secp256k1 key
                                        labelled PKCS11_KEY_LABEL, non-extractable; prints its address)
  zk ceremony init --out 0000.zkey (--ptau F | --new-ptau F) [--r1cs F]
  zk ceremony contribute --in N.zkey --out N+1.zkey --name NAME [--entropy TEXT]
  zk ceremony verify --in N.zkey --ptau F [--r1cs F]
  zk ceremony finalize --in N.zkey --beacon HEX [--iterations 10] --out final.zkey --vkey F
                                        (no database or config: the circuit's phase-2 trusted setup,
                                        docs/operators/compliance-operations.md; verify 1 when the chain is invalid)`;

/**
 * `credentials <verb>`, `keys <verb>`, `users <verb>`, `attester <verb>`, `sanctions <verb>`,
 * `issuers <verb>`, `audit <verb>`, `safe <verb>` and `attest revoke` are commands of two words,
 * `zk ceremony <verb>` of three;
 * every other is one word.
 */
export function splitCommand(argv: string[]): { command: string; args: string[] } {
  const [first, ...rest] = argv;
  if (first === 'zk' && rest[0] === 'ceremony' && rest[1] && !rest[1].startsWith('--'))
    return { command: `zk ceremony ${rest[1]}`, args: rest.slice(2) };
  if (
    [
      'credentials',
      'keys',
      'users',
      'attester',
      'sanctions',
      'attest',
      'issuers',
      'audit',
      'safe',
    ].includes(first) &&
    rest[0] &&
    !rest[0].startsWith('--')
  )
    return { command: `${first} ${rest[0]}`, args: rest.slice(1) };
  return { command: first, args: rest };
}

export function parseFlags(args: string[]): Record<string, string> {
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 2) {
    const name = args[i];
    const value = args[i + 1];
    if (!name?.startsWith('--') || value === undefined)
      throw new CliUsageError(`Unexpected argument: ${name ?? ''}`);
    flags[name.slice(2)] = value;
  }
  return flags;
}
