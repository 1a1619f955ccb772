/**
 * The cost twin (bench/cost-twin.ts): a server with no framework whose requests cost about what a
 * swap build costs the service, in the same shape: a piece of CPU work, one JSON-RPC POST to an
 * upstream process over undici's Pool (as src/chain/json-rpc-http.ts sends its reads), a second
 * piece of work, a JSON answer. The work is TWIN_UNITS (3) JSON round trips of a 200-row object
 * per piece (json-unit.cjs); an upstream failure is answered 502, which the bench counts.
 * `TWIN_ROLE=upstream` runs the upstream instead: a node:http server answering every POST with one
 * fixed JSON-RPC result. Prints `READY <port>`; `TWIN_UPSTREAM=<port>` for the server.
 */
'use strict';
/* global require, process, Buffer */
const { createServer } = require('node:http');

const RESULT = '{"jsonrpc":"2.0","id":1,"result":"0x"}';

function upstream() {
  return createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': RESULT.length });
      res.end(RESULT);
    });
  });
}

function twin() {
  const { Pool } = require('undici');
  const { jsonUnits } = require('./json-unit.cjs');
  const units = Number(process.env.TWIN_UNITS ?? 3);
  const pool = new Pool(`http://127.0.0.1:${process.env.TWIN_UPSTREAM}`, { connections: 64 });
  let id = 0;
  const answer = async () => {
    let rows = jsonUnits(units);
    id += 1;
    const rpc = await pool.request({
      path: '/',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_call', params: [] }),
    });
    const { result } = JSON.parse(await rpc.body.text());
    rows += jsonUnits(units);
    return JSON.stringify({ rows, result });
  };
  return createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      answer().then(
        (body) => {
          res.writeHead(200, {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          });
          res.end(body);
        },
        (err) => {
          res.writeHead(502, { 'content-type': 'text/plain' });
          res.end(String(err));
        },
      );
    });
  });
}

const server = process.env.TWIN_ROLE === 'upstream' ? upstream() : twin();
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`READY ${server.address().port}\n`));
