/**
 * Commands that run without the app: no configuration validation, and no database except
 * `migrate`'s (which reads the database settings only). Each takes its
 * arguments and returns its exit code and what to print on stdout; errors are thrown
 * (CliUsageError for bad arguments, exit 2; anything else, exit 1).
 */
import { attesterFundCommand } from './attester-fund-command';
import { attesterAddressCommand, attesterKeygenCommand } from './attester-key-commands';
import { deployCommand } from './deploy-command';
import { keysGenerate } from './keys-command';
import { migrateCommand } from './migrate-command';
import { safeCreateCommand } from './safe-command';
import { sanctionsCommand, SANCTIONS_VERBS } from './sanctions-command';
import { standaloneOperatorAudit } from './standalone-database';
import { verifyNetworkCommand } from './verify-network-command';
import { CEREMONY_VERBS, zkCeremonyCommand } from './zk-ceremony-command';

export interface StandaloneResult {
  exitCode: number;
  output: string;
  /** Printed on stderr before the output (e.g. which RPC URL the command used). */
  notice?: string;
  /** Printed on stderr after the output (e.g. a change made but not recorded in the operator audit). */
  warnings?: string[];
}

export const STANDALONE_COMMANDS: Record<string, (args: string[]) => Promise<StandaloneResult>> = {
  'attester fund': (args) => attesterFundCommand(args, process.env, standaloneOperatorAudit),
  'attester address': (args) => attesterAddressCommand(args),
  'attester keygen': (args) => attesterKeygenCommand(args, process.env, standaloneOperatorAudit),
  'keys generate': async (args) => ({ exitCode: 0, output: await keysGenerate(args) }),
  'verify-network': (args) => verifyNetworkCommand(args),
  deploy: (args) => deployCommand(args, standaloneOperatorAudit),
  migrate: (args) => migrateCommand(args),
  'safe create': (args) => safeCreateCommand(args),
  ...Object.fromEntries(
    SANCTIONS_VERBS.map((verb) => [
      `sanctions ${verb}`,
      (args: string[]) => sanctionsCommand(verb, args, process.env, standaloneOperatorAudit),
    ]),
  ),
  ...Object.fromEntries(
    CEREMONY_VERBS.map((verb) => [
      `zk ceremony ${verb}`,
      (args: string[]) => zkCeremonyCommand(verb, args),
    ]),
  ),
};
