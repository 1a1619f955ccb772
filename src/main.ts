import 'reflect-metadata';
// First: tracing (when switched on) must patch http, express, pg, ioredis and undici before they load.
import { flushTraces } from './bootstrap/tracing-preload';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { configureApp } from './bootstrap/configure-app';
import { ExpressHttpAdapter } from './bootstrap/http-adapter';
import { readyLine, startBanner, StartFacts } from './bootstrap/start-banner';
import type { AddressInfo } from 'node:net';
import { appConfig, AppConfig } from './config/app.config';
import { httpConfig, HttpConfig } from './config/http.config';
import { validateConfiguration } from './config';
import { loadSecretFiles } from './config/secret-files';
import { ChainInstanceService } from './chain/instance/chain-instance.service';
import { ChainConnection } from './chain/chain-connection';
import { recordDevnetEndpoint } from './chain/devnet/devnet-endpoint';
import { checkConfiguredNetworkFile } from './chain/network/network-loader';
import { checkTrustedSetup } from './compliance/compliance-keys';
import { limitHeapGrowth, settleHeap } from './bootstrap/heap';
import { armShutdownDeadline } from './lifecycle/shutdown-deadline';
import { exitCleanlyOnSignals } from './lifecycle/exit-on-signal';
import { guardStdio } from './common/logging/guard-stdio';
import {
  bootLogger,
  earlyLogFormat,
  jsonLine,
  startFailureLine,
} from './common/logging/boot-logger';
import { refuseUnsupportedRuntime } from './bootstrap/supported-runtime';

async function bootstrap(): Promise<void> {
  const started = process.hrtime.bigint();
  refuseUnsupportedRuntime();
  // A stdout whose reader has gone must not end (or stall) the service: see guardStdio.
  guardStdio();
  // NAME_FILE=path for the secrets (Compose and Kubernetes secrets), before anything reads them.
  loadSecretFiles();
  validateConfiguration([checkConfiguredNetworkFile, checkTrustedSetup]);
  const early = appConfig();
  const heapGrowingPercent = early.heapGrowingPercent;
  limitHeapGrowth(heapGrowingPercent);
  const boot = bootLogger(early.logLevel, early.logFormat);
  const app = await NestFactory.create(AppModule, new ExpressHttpAdapter(), {
    bodyParser: false,
    // JSON: each boot line as it happens, with its own time; pretty: held for the app's logger.
    bufferLogs: boot === undefined,
    abortOnError: false,
    logger: boot?.nest,
  });
  configureApp(app);
  const config = app.get<AppConfig>(appConfig.KEY);
  armShutdownDeadline(config);
  exitCleanlyOnSignals(app, flushTraces);
  if (heapGrowingPercent > 0) settleHeap();
  await app.listen(config.port, config.host);
  const address = app.getHttpServer().address() as AddressInfo;
  const chain = app.get(ChainConnection);
  // The operator CLI, run with the same DATA_DIR, finds this devnet's port here.
  if (chain.devnet) {
    try {
      recordDevnetEndpoint(config.dataDir, {
        rpcUrl: chain.rpcUrl,
        chainId: chain.network.chainId,
      });
    } catch (err) {
      new Logger('Chain').warn(
        `Could not record the devnet's address in DATA_DIR for the CLI: ${(err as Error).message}`,
      );
    }
  }
  const shown = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  const facts: StartFacts = {
    baseUrl: `http://${shown}:${address.port}`,
    startupMs: Number(process.hrtime.bigint() - started) / 1e6,
    docsEnabled: app.get<HttpConfig>(httpConfig.KEY).docsEnabled,
    chain: {
      chainId: chain.network.chainId,
      name: chain.network.name,
      rpcUrl: chain.devnet ? chain.rpcUrl : undefined,
      embedded: chain.devnet !== undefined,
      instance: app.get(ChainInstanceService).status,
    },
    dataDir: config.dataDir,
  };
  process.stdout.write(
    config.logFormat === 'pretty'
      ? startBanner(facts)
      : jsonLine(
          30,
          { event: 'service.ready', url: facts.baseUrl, startupMs: Math.round(facts.startupMs) },
          readyLine(facts),
        ),
  );
}

bootstrap().catch((err: unknown) => {
  // Boot failures (bad configuration above all) must say what is wrong, without a stack dump.
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(startFailureLine(message, earlyLogFormat()));
  process.exit(1);
});
