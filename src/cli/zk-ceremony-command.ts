/**
 * `npm run cli -- zk ceremony init|contribute|verify|finalize`: the operator's own Groth16 phase-2
 * trusted setup for the committed circuit (circuits/compliance_credential.circom), over snarkjs.
 * Runs without the app (no database, no configuration): each party runs one step on the file the
 * previous party handed over, and anyone re-checks the whole chain with `verify`.
 *
 *   init       --out 0000.zkey (--ptau F | --new-ptau F) [--r1cs F]
 *   contribute --in N.zkey --out N+1.zkey --name NAME [--entropy TEXT]
 *   verify     --in N.zkey --ptau F [--r1cs F]               (exit 1 when the chain is invalid)
 *   finalize   --in N.zkey --beacon HEX [--iterations 10] --out final.zkey --vkey FILE
 *
 * The r1cs is compiled from the committed circuit source with circom2 (WebAssembly, deterministic:
 * the same source and compiler give the constraints of the committed wasm) unless --r1cs names
 * one. Phase 1 is a powers-of-tau file: a public one (Perpetual Powers of Tau / Hermez) in
 * production, or, with --new-ptau, one made here by ONE local contributor (test only: whoever ran
 * it could keep its toxic waste).
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { loadSnarkjs } from '../compliance/zk/snarkjs';
import { resolveZkArtifact } from '../compliance/zk/zk-artifacts';
import { CliUsageError, parseFlags, required } from './cli-usage';
import type { StandaloneResult } from './standalone-commands';

export const CEREMONY_VERBS = ['init', 'contribute', 'verify', 'finalize'] as const;
type Verb = (typeof CEREMONY_VERBS)[number];

export const CIRCUIT_NAME = 'compliance_credential';
export const CIRCUIT_SOURCE = `circuits/${CIRCUIT_NAME}.circom`;

/** The flags each verb takes (anything else is a usage error). */
const FLAGS: Record<Verb, string[]> = {
  init: ['out', 'ptau', 'new-ptau', 'r1cs'],
  contribute: ['in', 'out', 'name', 'entropy'],
  verify: ['in', 'ptau', 'r1cs'],
  finalize: ['in', 'out', 'vkey', 'beacon', 'iterations'],
};

/**
 * Where the search for a phase 1's power starts: the circuit's own size decides (snarkjs makes a
 * phase 2 from any prepared ptau that covers the circuit; one constraint and one public output
 * take 2^2).
 */
const MIN_POWER = 1;

type Logger = {
  info: (...a: unknown[]) => void;
  warn: (...a: unknown[]) => void;
  error: (...a: unknown[]) => void;
  debug: (...a: unknown[]) => void;
};

/** A logger keeping snarkjs' messages (verify's list of contributions, its reasons to refuse). */
function collectingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (...a: unknown[]) => lines.push(a.map(String).join(' '));
  return { lines, info: keep, warn: keep, error: keep, debug: () => undefined };
}

/**
 * Compiles the committed circuit with circom2 (--O2, as `npm run zk:build` does) into `outDir`;
 * `wasm` adds the witness generator. Returns the paths of what it wrote.
 */
export function compileCircuit(outDir: string, wasm = false): { r1cs: string; wasm: string } {
  const root = dirname(dirname(resolveZkArtifact(CIRCUIT_SOURCE)));
  const circomCli = require.resolve('circom2/cli.js', { paths: [root] });
  execFileSync(
    process.execPath,
    [
      circomCli,
      join(root, CIRCUIT_SOURCE),
      '--r1cs',
      ...(wasm ? ['--wasm'] : []),
      '--O2',
      '-o',
      outDir,
      '-l',
      join(root, 'node_modules'),
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return {
    r1cs: join(outDir, `${CIRCUIT_NAME}.r1cs`),
    wasm: join(outDir, `${CIRCUIT_NAME}_js`, `${CIRCUIT_NAME}.wasm`),
  };
}

/** Runs `fn` with the r1cs named by --r1cs, else one compiled from the committed source. */
async function withR1cs<T>(flag: string | undefined, fn: (r1cs: string) => Promise<T>): Promise<T> {
  if (flag) return fn(existing(flag, 'r1cs'));
  const dir = mkdtempSync(join(tmpdir(), 'zk-ceremony-'));
  try {
    return await fn(compileCircuit(dir).r1cs);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function existing(path: string, flag: string): string {
  const file = resolve(path);
  if (!existsSync(file)) throw new CliUsageError(`--${flag} ${path}: no such file`);
  return file;
}

/** An output path: never replaces a file (a ceremony's files are evidence), makes its folder. */
function fresh(path: string, flag: string): string {
  const file = resolve(path);
  if (existsSync(file)) throw new CliUsageError(`--${flag} ${path} exists: choose a new file`);
  mkdirSync(dirname(file), { recursive: true });
  return file;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** One-contributor phase 1 of the power the circuit needs (test only). */
async function newLocalPtau(r1cs: string, out: string): Promise<number> {
  const snarkjs = loadSnarkjs();
  const info = await snarkjs.r1cs.info(r1cs);
  let power = MIN_POWER;
  while (2 ** power < info.nConstraints + info.nPubInputs + info.nOutputs + 1) power += 1;
  const work = mkdtempSync(join(tmpdir(), 'zk-ptau-'));
  try {
    const curve = await snarkjs.curves.getCurveFromName('bn128');
    await snarkjs.powersOfTau.newAccumulator(curve, power, join(work, '0.ptau'));
    await snarkjs.powersOfTau.contribute(
      join(work, '0.ptau'),
      join(work, '1.ptau'),
      'local one-person phase 1 (test only)',
      randomBytes(32).toString('hex'),
    );
    await snarkjs.powersOfTau.preparePhase2(join(work, '1.ptau'), out);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return power;
}

async function init(flags: Record<string, string>): Promise<Record<string, unknown>> {
  const out = fresh(required(flags, 'out'), 'out');
  if (!flags.ptau === !flags['new-ptau'])
    throw new CliUsageError(
      'init needs --ptau FILE (phase 1, e.g. a public ptau) or --new-ptau FILE',
    );
  const ptau = flags.ptau ? existing(flags.ptau, 'ptau') : fresh(flags['new-ptau'], 'new-ptau');
  return withR1cs(flags.r1cs, async (r1cs) => {
    const phase1 = flags.ptau
      ? { ptau, phase1: 'given' }
      : {
          ptau,
          phase1: `one local contributor, power ${await newLocalPtau(r1cs, ptau)}: test only, whoever ran it could forge proofs`,
        };
    const logger = collectingLogger();
    const csHash = (await loadSnarkjs().zKey.newZKey(r1cs, ptau, out, logger)) as Uint8Array;
    const info = await loadSnarkjs().r1cs.info(r1cs);
    return {
      zkey: out,
      ...phase1,
      circuit: CIRCUIT_SOURCE,
      constraints: info.nConstraints,
      circuitHash: hex(csHash),
      sha256: sha256(out),
    };
  });
}

async function contribute(flags: Record<string, string>): Promise<Record<string, unknown>> {
  const input = existing(required(flags, 'in'), 'in');
  const out = fresh(required(flags, 'out'), 'out');
  const name = required(flags, 'name');
  // snarkjs mixes the entropy with 64 fresh random bytes: --entropy only adds to them.
  const entropy = flags.entropy ?? randomBytes(32).toString('hex');
  const hash = (await loadSnarkjs().zKey.contribute(input, out, name, entropy)) as Uint8Array;
  return { zkey: out, name, contributionHash: hex(hash), sha256: sha256(out) };
}

export interface CeremonyContribution {
  index: number;
  name: string;
  hash: string;
  beacon?: { hash: string; iterationsExp: number };
}

/** Parses snarkjs' verify log: `contribution #N NAME:` then the hash in 4 lines of 4 words. */
export function contributionsFromLog(lines: string[]): CeremonyContribution[] {
  const contributions: CeremonyContribution[] = [];
  for (const line of lines) {
    const head = /^contribution #(\d+) ?(.*?):\n([\s\S]*)$/.exec(line);
    if (head) {
      contributions.push({
        index: Number(head[1]),
        name: head[2],
        hash: head[3].replace(/\s+/g, ''),
      });
      continue;
    }
    const last = contributions[contributions.length - 1];
    const generator = /^Beacon generator: ([0-9a-f]+)$/.exec(line);
    if (last && generator) last.beacon = { hash: generator[1], iterationsExp: 0 };
    const iterations = /^Beacon iterations Exp: (\d+)$/.exec(line);
    if (last?.beacon && iterations) last.beacon.iterationsExp = Number(iterations[1]);
  }
  return contributions.sort((a, b) => a.index - b.index);
}

async function verify(flags: Record<string, string>): Promise<Record<string, unknown>> {
  const zkey = existing(required(flags, 'in'), 'in');
  const ptau = existing(required(flags, 'ptau'), 'ptau');
  const logger = collectingLogger();
  const { valid, error } = await withR1cs(flags.r1cs, async (r1cs) => {
    // snarkjs reports a broken link of the chain with console.log: keep stdout one JSON line.
    const log = console.log;
    console.log = logger.info;
    try {
      return { valid: await loadSnarkjs().zKey.verifyFromR1cs(r1cs, ptau, zkey, logger) };
    } catch (thrown) {
      return { valid: false, error: (thrown as Error).message };
    } finally {
      console.log = log;
    }
  });
  if (!valid) {
    const said = logger.lines.filter((l) => /invalid|not|mismatch/i.test(l));
    const reason = error ?? (said.join('; ') || 'the zkey does not follow from the r1cs and ptau');
    return { valid, zkey, reason };
  }
  const circuitLine = logger.lines.find((l) => l.startsWith('Circuit Hash:')) ?? '';
  return {
    valid,
    zkey,
    circuitHash: circuitLine.replace(/^Circuit Hash:/, '').replace(/\s+/g, ''),
    contributions: contributionsFromLog(logger.lines),
  };
}

async function finalize(flags: Record<string, string>): Promise<Record<string, unknown>> {
  const input = existing(required(flags, 'in'), 'in');
  const beacon = required(flags, 'beacon').replace(/^0x/, '');
  if (!/^([0-9a-fA-F]{2}){1,64}$/.test(beacon))
    throw new CliUsageError(
      '--beacon must be hex bytes (e.g. a block hash published after the last contribution)',
    );
  const iterations = Number(flags.iterations ?? '10');
  if (!Number.isInteger(iterations) || iterations < 10 || iterations > 63)
    throw new CliUsageError(
      '--iterations must be a whole number from 10 to 63 (2^N SHA-256 rounds)',
    );
  const out = fresh(required(flags, 'out'), 'out');
  const vkeyFile = fresh(required(flags, 'vkey'), 'vkey');
  const snarkjs = loadSnarkjs();
  const hash = (await snarkjs.zKey.beacon(input, out, 'final beacon', beacon, iterations)) as
    Uint8Array | undefined;
  if (!hash) throw new Error(`the beacon could not be applied to ${input}`);
  const vkey = await snarkjs.zKey.exportVerificationKey(out);
  writeFileSync(vkeyFile, `${JSON.stringify(vkey, null, 2)}\n`);
  return {
    zkey: out,
    verificationKey: vkeyFile,
    beacon: { hash: beacon.toLowerCase(), iterationsExp: iterations },
    contributionHash: hex(hash),
    sha256: { zkey: sha256(out), verificationKey: sha256(vkeyFile) },
    settings: { ZK_PROVING_KEY_PATH: out, ZK_VERIFICATION_KEY_PATH: vkeyFile },
  };
}

export async function zkCeremonyCommand(verb: Verb, args: string[]): Promise<StandaloneResult> {
  const flags = parseFlags(args);
  const unknown = Object.keys(flags).find((f) => !FLAGS[verb].includes(f));
  if (unknown) throw new CliUsageError(`zk ceremony ${verb} takes no --${unknown}`);
  const started = Date.now();
  const steps = { init, contribute, verify, finalize };
  const result = await steps[verb](flags);
  return {
    exitCode: result.valid === false ? 1 : 0,
    output: `${JSON.stringify({ ...result, seconds: elapsed(started) })}\n`,
  };
}

const elapsed = (since: number) => Math.round((Date.now() - since) / 100) / 10;
