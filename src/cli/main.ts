import 'reflect-metadata';
import type * as NestCore from '@nestjs/core';
import type * as Config from '../config';
import type * as CliCommands from './cli-commands';
import type * as CliModuleFile from './cli.module';
import type * as NetworkLoader from '../chain/network/network-loader';
import { CliUsageError, parseFlags, splitCommand, USAGE } from './cli-usage';
import { defaultDatabaseRefusal, REQUIRE_DATABASE_URL_FLAG } from './default-database-guard';
import { STANDALONE_COMMANDS } from './standalone-commands';
import { CHAIN_COMMANDS, serviceChain, serviceChainNotice } from './service-chain';
import { refuseUnsupportedRuntime } from '../bootstrap/supported-runtime';
import { loadSecretFiles } from '../config/secret-files';

async function main(argv: string[]): Promise<number> {
  refuseUnsupportedRuntime();
  // The service's NAME_FILE secrets (DATABASE_URL_FILE, ATTESTER_PRIVATE_KEY_FILE...) as it reads them.
  loadSecretFiles();
  const refusal = defaultDatabaseRefusal(process.env, argv);
  const { command, args } = splitCommand(argv.filter((a) => a !== REQUIRE_DATABASE_URL_FLAG));
  if (!command || command === '--help') {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  const standalone = STANDALONE_COMMANDS[command];
  if (standalone) {
    const { exitCode, output, notice, warnings = [] } = await standalone(args);
    if (notice) process.stderr.write(notice);
    process.stdout.write(output);
    for (const warning of warnings) process.stderr.write(`${warning}\n`);
    return exitCode;
  }
  if (refusal) {
    process.stderr.write(`${refusal}\n`);
    return 2;
  }
  // The app (Nest, TypeORM, the compliance stack) loads only for the commands that need it: the
  // standalone ones above answer in well under a second instead of ~4 s.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { NestFactory } = require('@nestjs/core') as typeof NestCore;
  const { validateConfiguration } = require('../config') as typeof Config;
  const { CliModule } = require('./cli.module') as typeof CliModuleFile;
  const { runCommand } = require('./cli-commands') as typeof CliCommands;
  const { checkConfiguredNetworkFile } =
    require('../chain/network/network-loader') as typeof NetworkLoader;
  /* eslint-enable @typescript-eslint/no-require-imports */
  validateConfiguration([checkConfiguredNetworkFile]);
  if (CHAIN_COMMANDS.has(command))
    process.stderr.write(serviceChainNotice(serviceChain(process.env)));
  const app = await NestFactory.createApplicationContext(CliModule, {
    logger: ['error'],
    abortOnError: false,
  });
  try {
    const result = await runCommand(app, command, parseFlags(args));
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } finally {
    await app.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`${message}\n${err instanceof CliUsageError ? `${USAGE}\n` : ''}`);
    process.exit(err instanceof CliUsageError ? 2 : 1);
  },
);
