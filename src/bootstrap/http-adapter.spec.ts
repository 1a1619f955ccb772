import {
  BadRequestException,
  Controller,
  Get,
  HttpCode,
  INestApplication,
  Module,
  Param,
  Query,
  Req,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express, Request } from 'express';
import { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { attachPrincipal } from '../auth/principal';
import { withResponseHeaders } from '../common/http/response-headers';
import { ExpressHttpAdapter } from './http-adapter';

@Controller()
class ProbeController {
  @Get('probe')
  @HttpCode(202)
  probe(@Req() req: Request, @Query('q') q: string) {
    return { q, header: req.get('x-probe'), ip: req.ip, path: req.path };
  }

  /** As if the auth guard had let an API-key caller in (or not, for `public`). */
  @Get('protected/:shape')
  protectedRoute(@Req() req: Request, @Param('shape') shape: string) {
    if (shape !== 'public')
      attachPrincipal(req, { method: 'api_key', accountId: 'a1', apiKeyId: 'k1', scopes: [] });
    if (shape === 'error') throw new BadRequestException('no');
    if (shape === 'array') return [1, 2];
    if (shape === 'headers') return withResponseHeaders({ value: 1 }, { 'X-Probe-Id': 'p1' });
    return { value: 1 };
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

/** Boots the probe app on `adapter` and records each request's prototypes as Node made them. */
async function boot(adapter: ExpressAdapter) {
  const app: INestApplication = await NestFactory.create(ProbeModule, adapter, { logger: false });
  await app.listen(0, '127.0.0.1');
  const server = app.getHttpServer() as Server;
  const born: Array<{ req: unknown; res: unknown }> = [];
  // Runs before Express's handler, i.e. before Express would set the prototypes itself.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) =>
    born.push({ req: Object.getPrototypeOf(req), res: Object.getPrototypeOf(res) }),
  );
  const express = adapter.getInstance<Express>();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { app, express, born, url };
}

describe('ExpressHttpAdapter', () => {
  it("makes requests and responses with Express's prototypes, so Express has none to set", async () => {
    const { app, express, born, url } = await boot(new ExpressHttpAdapter());
    try {
      const res = await fetch(`${url}/probe?q=7`, { headers: { 'x-probe': 'yes' } });
      expect(res.status).toBe(202);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({ q: '7', header: 'yes', ip: '127.0.0.1', path: '/probe' });
      expect(born).toHaveLength(1);
      expect(born[0].req).toBe(express.request);
      expect(born[0].res).toBe(express.response);
      // Still Node's classes underneath (streams, sockets, headers).
      expect(Object.create(express.request as object)).toBeInstanceOf(IncomingMessage);
      expect(Object.create(express.response as object)).toBeInstanceOf(ServerResponse);
    } finally {
      await app.close();
    }
  });

  it("differs from Nest's default adapter, whose requests get their prototypes from Express later", async () => {
    const { app, express, born, url } = await boot(new ExpressAdapter());
    try {
      expect((await fetch(`${url}/probe?q=7`)).status).toBe(202);
      expect(born[0].req).toBe(IncomingMessage.prototype);
      expect(born[0].req).not.toBe(express.request);
    } finally {
      await app.close();
    }
  });

  it('puts authMethod first on a protected success object body, and nowhere else', async () => {
    const { app, url } = await boot(new ExpressHttpAdapter());
    try {
      const get = async (shape: string) => {
        const res = await fetch(`${url}/protected/${shape}`);
        return { status: res.status, text: await res.text() };
      };
      expect(await get('object')).toEqual({
        status: 200,
        text: '{"authMethod":"api_key","value":1}',
      });
      expect(await get('array')).toEqual({ status: 200, text: '[1,2]' });
      expect(await get('public')).toEqual({
        status: 200,
        text: '{"value":1}',
      });
      const error = await get('error');
      expect(error.status).toBe(400);
      expect(JSON.parse(error.text)).not.toHaveProperty('authMethod');
    } finally {
      await app.close();
    }
  });

  it('sets the headers an answer was marked with, and serializes nothing of them', async () => {
    const { app, url } = await boot(new ExpressHttpAdapter());
    try {
      const res = await fetch(`${url}/protected/headers`);
      expect(res.headers.get('x-probe-id')).toBe('p1');
      expect(await res.text()).toBe('{"authMethod":"api_key","value":1}');
      expect((await fetch(`${url}/protected/object`)).headers.get('x-probe-id')).toBeNull();
    } finally {
      await app.close();
    }
  });
});
