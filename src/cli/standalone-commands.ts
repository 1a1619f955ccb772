/**
 * Commands that run without the app: no configuration validation, and no database except
 * `migrate`'s (which reads the database settings only). Each takes its
 * arguments and returns its exit code and what to print on stdout; errors are thrown
 * (CliUsageError for bad arguments, exit 2; anything else, exit 1).
 */
import { attesterFundCommand } from './attester-fund-command';
import { deployCommand } from './deploy-command';
import { keysGenerate } from './keys-command';
import { migrateCommand } from './migrate-command';
import { sanctionsCommand, SANCTIONS_VERBS } from './sanctions-command';
import { verifyNetworkCommand } from './verify-network-command';
import { CEREMONY_VERBS, zkCeremonyCommand } from './zk-ceremony-command';

export interface StandaloneResult {
  exitCode: number;
  output: string;
}

export const STANDALONE_COMMANDS: Record<string, (args: string[]) => Promise<StandaloneResult>> = {
  'attester fund': (args) => attesterFundCommand(args),
  'keys generate': async (args) => ({ exitCode: 0, output: await keysGenerate(args) }),
  'verify-network': (args) => verifyNetworkCommand(args),
  deploy: (args) => deployCommand(args),
  migrate: (args) => migrateCommand(args),
  ...Object.fromEntries(
    SANCTIONS_VERBS.map((verb) => [
      `sanctions ${verb}`,
      (args: string[]) => sanctionsCommand(verb, args),
    ]),
  ),
  ...Object.fromEntries(
    CEREMONY_VERBS.map((verb) => [
      `zk ceremony ${verb}`,
      (args: string[]) => zkCeremonyCommand(verb, args),
    ]),
  ),
};
