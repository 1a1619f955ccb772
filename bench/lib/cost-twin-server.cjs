/**
 * The cost twin (bench/cost-twin.ts): a server with no framework whose requests cost about what a
 * swap build costs the service, in the same shape: a piece of CPU work, one JSON-RPC POST to an
 * upstream process over undici's Pool (as src/chain/json-rpc-http.ts sends its reads), a second
 * piece of work, a JSON answer. The work is JSON round trips of a 200-row object, TWIN_UNITS per
 * piece. `TWIN_ROLE=upstream` runs the upstream instead: a node:http server answering every POST
 * with one fixed JSON-RPC result. Prints `READY <port>`; `TWIN_UPSTREAM=<port>` for the server.
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
  const units = Number(process.env.TWIN_UNITS ?? 3);
  const pool = new Pool(`http://127.0.0.1:${process.env.TWIN_UPSTREAM}`, { connections: 64 });
  const doc = {
    rows: Array.from({ length: 200 }, (_, i) => ({
      id: i,
      name: `row ${i}`,
      v: [i, i * 2, `v${i}`],
    })),
  };
  const work = () => {
    let rows = 0;
    for (let k = 0; k < units; k += 1) rows += JSON.parse(JSON.stringify(doc)).rows.length;
    return rows;
  };
  let id = 0;
  return createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      let rows = work();
      id += 1;
      const rpc = await pool.request({
        path: '/',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_call', params: [] }),
      });
      const answer = JSON.parse(await rpc.body.text());
      rows += work();
      const body = JSON.stringify({ rows, result: answer.result });
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
    });
  });
}

const server = process.env.TWIN_ROLE === 'upstream' ? upstream() : twin();
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`READY ${server.address().port}\n`));
