import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { validateConfiguration } from '../config';
import { CliModule } from './cli.module';
import { CliUsageError, parseFlags, runCommand, splitCommand, USAGE } from './cli-commands';

async function main(argv: string[]): Promise<number> {
  const { command, args } = splitCommand(argv);
  if (!command || command === '--help') {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  validateConfiguration();
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
