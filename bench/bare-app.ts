/**
 * The ceiling: a bare NestJS/Express app with one "hello" route and nothing else (no logging,
 * validation, auth, database or chain), run in its own process like the service. Nest's default
 * Express adapter; `SERVER_CLASSES=express` runs it on the service's adapter instead
 * (src/bootstrap/http-adapter.ts), the second bare row of the table.
 */
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import { ExpressHttpAdapter } from '../src/bootstrap/http-adapter';

@Controller()
class HelloController {
  @Get('hello')
  hello() {
    return { hello: 'world' };
  }
}

@Module({ controllers: [HelloController] })
class BareModule {}

async function main(): Promise<void> {
  const app =
    process.env.SERVER_CLASSES === 'express'
      ? await NestFactory.create(BareModule, new ExpressHttpAdapter(), { logger: false })
      : await NestFactory.create(BareModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  // An exit, not the default signal death, so that --cpu-prof (BENCH_PROFILE) writes its profile.
  process.once('SIGTERM', () => process.exit(0));
  process.stdout.write(`READY ${(app.getHttpServer().address() as AddressInfo).port}\n`);
}

void main();
