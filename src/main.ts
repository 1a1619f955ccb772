import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { configureApp } from './bootstrap/configure-app';
import { ExpressHttpAdapter } from './bootstrap/http-adapter';
import { readyLine, startBanner, StartFacts } from './bootstrap/start-banner';
import type { AddressInfo } from 'node:net';
import { appConfig, AppConfig } from './config/app.config';
import { httpConfig, HttpConfig } from './config/http.config';
import { validateConfiguration } from './config';
import { ChainInstanceService } from './chain/instance/chain-instance.service';
import { ChainConnection } from './chain/chain-connection';
import { checkConfiguredNetworkFile } from './chain/network/network-loader';
import { checkTrustedSetup } from './compliance/compliance-keys';
import { limitHeapGrowth, settleHeap } from './bootstrap/heap';
import { armShutdownDeadline } from './lifecycle/shutdown-deadline';
import { guardStdio } from './common/logging/guard-stdio';
import { refuseUnsupportedRuntime } from './bootstrap/supported-runtime';

async function bootstrap(): Promise<void> {
  const started = process.hrtime.bigint();
  refuseUnsupportedRuntime();
  // A stdout whose reader has gone must not end (or stall) the service: see guardStdio.
  guardStdio();
  validateConfiguration([checkConfiguredNetworkFile, checkTrustedSetup]);
  const heapGrowingPercent = appConfig().heapGrowingPercent;
  limitHeapGrowth(heapGrowingPercent);
  const app = await NestFactory.create(AppModule, new ExpressHttpAdapter(), {
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false,
  });
  configureApp(app);
  const config = app.get<AppConfig>(appConfig.KEY);
  armShutdownDeadline(config);
  if (heapGrowingPercent > 0) settleHeap();
  await app.listen(config.port, config.host);
  const address = app.getHttpServer().address() as AddressInfo;
  const chain = app.get(ChainConnection);
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
    config.logFormat === 'pretty' ? startBanner(facts) : `${readyLine(facts)}\n`,
  );
}

bootstrap().catch((err: unknown) => {
  // Boot failures (bad configuration above all) must say what is wrong, without a stack dump.
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`Failed to start: ${message}\n`);
  process.exit(1);
});
