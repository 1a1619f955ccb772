import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { configureApp } from './bootstrap/configure-app';
import type { AddressInfo } from 'node:net';
import { appConfig, AppConfig } from './config/app.config';
import { validateConfiguration } from './config';

async function bootstrap(): Promise<void> {
  const started = process.hrtime.bigint();
  validateConfiguration();
  const app = await NestFactory.create(AppModule, {
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false,
  });
  configureApp(app);
  const { port, host } = app.get<AppConfig>(appConfig.KEY);
  await app.listen(port, host);
  const address = app.getHttpServer().address() as AddressInfo;
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const shown = host === '0.0.0.0' ? '127.0.0.1' : host;
  process.stdout.write(
    `Ready on http://${shown}:${address.port} in ${ms.toFixed(0)} ms (docs: /docs)\n`,
  );
}

bootstrap().catch((err: unknown) => {
  // Boot failures (bad configuration above all) must say what is wrong, without a stack dump.
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`Failed to start: ${message}\n`);
  process.exit(1);
});
