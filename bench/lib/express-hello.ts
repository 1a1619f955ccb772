/**
 * A plain Express 5 hello for `npm run bench:http-server`, in its own process: with Node's default
 * server classes (`SERVER_CLASSES=node`) or with `expressServerClasses` (`=express`, what the
 * service uses, src/bootstrap/http-adapter.ts).
 */
import express from 'express';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expressServerClasses } from '../../src/bootstrap/http-adapter';

const app = express();
app.get('/hello', (_req, res) => {
  res.json({ hello: 'world' });
});
const server =
  process.env.SERVER_CLASSES === 'express'
    ? createServer(expressServerClasses(app), app)
    : createServer(app);
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`READY ${(server.address() as AddressInfo).port}\n`);
});
