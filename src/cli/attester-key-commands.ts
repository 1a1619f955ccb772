/**
 * `npm run cli -- attester address [--json]`: the attester's address whatever signs for it (the
 * service's ATTESTER_PRIVATE_KEY, or its key in a PKCS#11 token with ATTESTER_SIGNER=pkcs11), and
 * the standby's when one is configured. `npm run cli -- attester keygen [--standby] [--json]`:
 * has the token generate a secp256k1 key pair labelled PKCS11_KEY_LABEL (PKCS11_STANDBY_KEY_LABEL
 * with --standby), private, sensitive and not extractable, and prints its address (to allow in the
 * registry: deploy --attester, and to fund). Both run without the app: the environment's
 * attester settings only, no database.
 */
import { computeAddress } from 'ethers';
import { openSigner, SignerSource } from '../chain/signers/open-signer';
import { Pkcs11SettingError, Pkcs11Token } from '../chain/signers/pkcs11-token';
import { attesterKeySources } from '../compliance/sessions/attester-key-sources';
import { complianceConfig, type ComplianceConfig } from '../config/compliance.config';
import { collectConfigErrors } from '../config/env-reader';
import { CliUsageError } from './cli-usage';
import type { StandaloneResult } from './standalone-commands';
import type { OperatorAuditWriter } from './standalone-database';

/** The settings this command reads; other namespaces' problems are the service's start's. */
const ATTESTER_SETTING = /^(ATTESTER_|PKCS11_)/;

/** The compliance settings of `env`, failing on a bad attester setting only (named). */
function attesterSettings(env: NodeJS.ProcessEnv): ComplianceConfig {
  const saved = process.env;
  process.env = env;
  try {
    let config: ComplianceConfig | undefined;
    const problems = collectConfigErrors(() => (config = complianceConfig())).filter((p) =>
      ATTESTER_SETTING.test(p.variable),
    );
    if (problems.length > 0) throw new CliUsageError(problems.map((p) => p.problem).join('\n'));
    return config!;
  } finally {
    process.env = saved;
  }
}

export interface ConfiguredAttester {
  address: string;
  /** `key`, or `pkcs11:<token label>/<key label>`. */
  signer: string;
}

function describe(source: SignerSource, keyLabelSetting: string): ConfiguredAttester {
  let held;
  try {
    held = openSigner(source, null, keyLabelSetting);
  } catch (error) {
    if (error instanceof Pkcs11SettingError) throw new CliUsageError(error.message);
    throw error;
  }
  try {
    return { address: held.address, signer: held.description };
  } finally {
    held.close();
  }
}

/**
 * The attester (and standby) the service signs with under `env`: ATTESTER_PRIVATE_KEY's address,
 * or the token key's; with neither set, devnet account 0 (`defaulted`: the demo's attester).
 */
export function configuredAttesters(env: NodeJS.ProcessEnv): {
  primary: ConfiguredAttester;
  standby?: ConfiguredAttester;
  defaulted: boolean;
} {
  const config = attesterSettings(env);
  const sources = attesterKeySources(config);
  return {
    primary: describe(sources.primary, 'PKCS11_KEY_LABEL'),
    ...(sources.standby && { standby: describe(sources.standby, 'PKCS11_STANDBY_KEY_LABEL') }),
    defaulted: config.attesterSigner === 'key' && config.attesterPrivateKey === undefined,
  };
}

/** The configured attester's address; undefined when nothing is configured (no default). */
export function configuredAttester(env: NodeJS.ProcessEnv): string | undefined {
  const attesters = configuredAttesters(env);
  return attesters.defaulted ? undefined : attesters.primary.address;
}

function flags(args: string[], allowed: readonly string[]): Set<string> {
  for (const arg of args)
    if (!allowed.includes(arg)) throw new CliUsageError(`Unexpected argument: ${arg}`);
  return new Set(args);
}

export async function attesterAddressCommand(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<StandaloneResult> {
  const json = flags(args, ['--json']).has('--json');
  const attesters = configuredAttesters(env);
  if (json) return { exitCode: 0, output: `${JSON.stringify(attesters)}\n` };
  const lines = [attesters.primary.address];
  if (attesters.standby) lines.push(`standby ${attesters.standby.address}`);
  return { exitCode: 0, output: `${lines.join('\n')}\n` };
}

export async function attesterKeygenCommand(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  audit?: OperatorAuditWriter,
): Promise<StandaloneResult> {
  const given = flags(args, ['--json', '--standby']);
  const config = attesterSettings(env);
  if (config.attesterSigner !== 'pkcs11' || !config.attesterPkcs11)
    throw new CliUsageError(
      'attester keygen makes a key in a PKCS#11 token: set ATTESTER_SIGNER=pkcs11 with PKCS11_MODULE, PKCS11_TOKEN_LABEL, PKCS11_PIN and PKCS11_KEY_LABEL (a key in the environment comes from npm run cli -- keys generate)',
    );
  const standby = given.has('--standby');
  const settings =
    standby && config.attesterStandby && 'pkcs11' in config.attesterStandby
      ? config.attesterStandby.pkcs11
      : config.attesterPkcs11;
  if (standby && settings === config.attesterPkcs11)
    throw new CliUsageError("--standby needs PKCS11_STANDBY_KEY_LABEL: the standby key's label");
  let token: Pkcs11Token;
  try {
    token = Pkcs11Token.open(settings);
  } catch (error) {
    if (error instanceof Pkcs11SettingError) throw new CliUsageError(error.message);
    throw error;
  }
  try {
    const pair = await token.generateKeyPair(settings.keyLabel).catch((error: unknown) => {
      throw new CliUsageError((error as Error).message);
    });
    const result = {
      address: computeAddress(`0x${pair.publicPoint.toString('hex')}`),
      token: settings.tokenLabel,
      label: settings.keyLabel,
      ...token.keyProtection(settings.keyLabel),
    };
    const warning = await audit?.({
      type: 'attester.key_generated',
      target: { type: 'attester', id: result.address },
      data: { token: result.token, label: result.label, standby },
    });
    const warnings = warning ? { warnings: [warning] } : {};
    if (given.has('--json'))
      return { exitCode: 0, output: `${JSON.stringify(result)}\n`, ...warnings };
    return {
      ...warnings,
      exitCode: 0,
      output:
        `${result.address}\n` +
        `  secp256k1 key "${result.label}" generated in token "${result.token}": sensitive, not extractable.\n` +
        `  Allow it in the registry (deploy ... --attester ${result.address}) and fund it (attester fund).\n`,
    };
  } finally {
    token.release();
  }
}
