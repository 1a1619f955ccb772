import express, { Request, Response } from 'express';
import request from 'supertest';
import { hotRoutesFirst, RouteLayer } from './hot-routes';

/** An app whose answers name the layer that answered, with the routes in `paths` order. */
function appWith(paths: Array<[method: 'get' | 'post', path: string]>) {
  const app = express();
  app.use((_req: Request, res: Response, next: () => void) => {
    res.setHeader('X-Seen-By', 'middleware');
    next();
  });
  for (const [method, path] of paths)
    app[method](path, (_req: Request, res: Response) => {
      res.json({ answeredBy: `${method} ${path}` });
    });
  app.use('/docs', (_req: Request, res: Response) => {
    res.json({ answeredBy: 'docs' });
  });
  return { app, stack: (app.router as unknown as { stack: RouteLayer[] }).stack };
}

const routesOf = (stack: RouteLayer[]) => stack.filter((l) => l.route).map((l) => l.route!.path);

describe('hotRoutesFirst', () => {
  it('moves the routes under the prefix before the others, each group in its order', async () => {
    const { app, stack } = appWith([
      ['get', '/health/live'],
      ['post', '/api/v1/api-keys'],
      ['get', '/api/v1/api-keys/:id'],
      ['post', '/api/v1/defi/swap'],
      ['get', '/api/v1/defi/config'],
      ['get', '/api/v1/defi/positions/:tokenId'],
      ['get', '/zk/:sha256/:file'],
    ]);
    const middlewareBefore = stack[0];
    expect(hotRoutesFirst(stack)).toEqual([]);
    expect(stack[0]).toBe(middlewareBefore);
    expect(routesOf(stack)).toEqual([
      '/api/v1/defi/swap',
      '/api/v1/defi/config',
      '/api/v1/defi/positions/:tokenId',
      '/health/live',
      '/api/v1/api-keys',
      '/api/v1/api-keys/:id',
      '/zk/:sha256/:file',
    ]);
    // Every route still answers its own requests, middleware included, in any case of letters.
    for (const [path, answeredBy] of [
      ['/api/v1/defi/config', 'get /api/v1/defi/config'],
      ['/API/V1/DEFI/CONFIG', 'get /api/v1/defi/config'],
      ['/api/v1/defi/positions/7', 'get /api/v1/defi/positions/:tokenId'],
      ['/api/v1/api-keys/abc', 'get /api/v1/api-keys/:id'],
      ['/health/live', 'get /health/live'],
      ['/docs/x', 'docs'],
    ]) {
      const res = await request(app).get(path).expect(200);
      expect(res.body).toEqual({ answeredBy });
      expect(res.headers['x-seen-by']).toBe('middleware');
    }
  });

  it('stops before a route that could match a path under the prefix', async () => {
    const { app, stack } = appWith([
      ['get', '/health/live'],
      ['post', '/api/v1/defi/swap'],
      ['get', '/api/v1/:area/config'],
      ['get', '/api/v1/defi/config'],
    ]);
    expect(hotRoutesFirst(stack)).toEqual(['/api/v1/:area/config']);
    expect(routesOf(stack)).toEqual([
      '/api/v1/defi/swap',
      '/health/live',
      '/api/v1/:area/config',
      '/api/v1/defi/config',
    ]);
    // The catch-all route still answers first, as it did before.
    expect((await request(app).get('/api/v1/defi/config').expect(200)).body).toEqual({
      answeredBy: 'get /api/v1/:area/config',
    });
  });

  it('never moves a route past a middleware that sees its requests', async () => {
    const app = express();
    const seen: string[] = [];
    const answer = (name: string) => (_req: Request, res: Response) => res.json({ name, seen });
    app.get('/docs/ui.js', answer('docs route'));
    app.use('/docs', answer('docs files'));
    // The usage meter's kind: every path (Nest's forRoutes('{*path}')).
    app.use('/{*path}', (req: Request, _res: Response, next: () => void) => {
      seen.push(req.originalUrl);
      next();
    });
    app.get('/health/live', answer('health'));
    app.get('/api/v1/defi/config', answer('config'));
    app.use('/dashboard', answer('dashboard'));
    const stack = (app.router as unknown as { stack: RouteLayer[] }).stack;
    const before = stack.map((l) => l.rawPath);
    expect(hotRoutesFirst(stack)).toEqual([]);
    expect(stack.map((l) => l.rawPath)).toEqual([
      '/docs/ui.js',
      '/docs',
      '/{*path}',
      '/api/v1/defi/config',
      '/health/live',
      '/dashboard',
    ]);
    expect(new Set(stack.map((l) => l.rawPath))).toEqual(new Set(before));
    const res = await request(app).get('/api/v1/defi/config').expect(200);
    expect(res.body).toEqual({ name: 'config', seen: ['/api/v1/defi/config'] });
  });
});
