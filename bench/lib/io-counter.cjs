/**
 * Preloaded into a service under bench (`node -r bench/lib/io-counter.cjs dist/main.js`, by
 * bench/request-io.ts and build-cost.ts's BENCH_IO): counts every SQL statement and Redis command
 * the process sends, at the drivers (pg's Client#query, TypeORM's better-sqlite3 query runner,
 * ioredis' Redis#sendCommand, which pipelines and scripts go through too), by statement text.
 * The drivers are the ones the service resolves from its working directory, so another tree's
 * service (a worktree of an older commit) is counted at its own drivers.
 *
 * pg_stat_statements would count at the server, but it needs shared_preload_libraries and so a
 * restart of the PostgreSQL server this machine's other sessions share; and Redis 7.0's
 * INFO commandstats and MONITOR see every client of the shared server. Counting in the process
 * sees only this service's traffic.
 *
 * A listener on 127.0.0.1 (its port written to BENCH_IO_COUNT_FILE) answers GET /io with the
 * counts so far and POST /io/reset with an empty slate; it is unref'd, so it never holds the
 * process open.
 */
'use strict';
const { isMainThread } = require('node:worker_threads');
const { createServer } = require('node:http');
const { writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

/** `${kind} ${text}` -> how many times sent. */
let counts = new Map();
let roundTrips = { pg: 0, redis: 0, sqlite: 0 };

function add(kind, text) {
  const key = `${kind} ${text}`;
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** A statement as one line: whitespace collapsed, parameters already out of the text. */
const oneLine = (sql) => String(sql).replace(/\s+/g, ' ').trim().slice(0, 300);

function fromTree(name) {
  try {
    return require(require.resolve(name, { paths: [process.cwd()] }));
  } catch {
    return undefined;
  }
}

const pg = fromTree('pg');
if (pg) {
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function countedQuery(config, ...rest) {
    const text = typeof config === 'string' ? config : config?.text;
    if (text !== undefined) {
      roundTrips.pg += 1;
      add('pg', oneLine(text));
    }
    return query.call(this, config, ...rest);
  };
}

const ioredis = fromTree('ioredis');
const Redis = ioredis?.default ?? ioredis;
if (Redis?.prototype?.sendCommand) {
  const sendCommand = Redis.prototype.sendCommand;
  Redis.prototype.sendCommand = function countedCommand(command, ...rest) {
    // A pipeline's commands come through here with its stream: one round trip for the batch.
    if (rest[0] === undefined) roundTrips.redis += 1;
    const name = String(command?.name ?? '?').toUpperCase();
    // The script's name is its SHA; the command says which keys it touched (prefix stripped of ids).
    add('redis', name);
    return sendCommand.call(this, command, ...rest);
  };
}

// TypeORM's exports map hides its driver files: required by their path inside the package.
const runner = (() => {
  try {
    const typeorm = dirname(require.resolve('typeorm', { paths: [process.cwd()] }));
    return require(join(typeorm, 'driver/better-sqlite3/BetterSqlite3QueryRunner.js'));
  } catch {
    return undefined;
  }
})();
if (runner?.BetterSqlite3QueryRunner) {
  const query = runner.BetterSqlite3QueryRunner.prototype.query;
  runner.BetterSqlite3QueryRunner.prototype.query = function countedSqlite(sql, ...rest) {
    roundTrips.sqlite += 1;
    add('sqlite', oneLine(sql));
    return query.call(this, sql, ...rest);
  };
}

// Worker threads (the SQLite checkpointer, the proof verifiers) inherit the -r preload: only the
// main thread, where requests are served, counts and listens.
const server = createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/io/reset') {
    counts = new Map();
    roundTrips = { pg: 0, redis: 0, sqlite: 0 };
    res.end('{}');
    return;
  }
  if (req.url === '/io') {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ roundTrips, statements: Object.fromEntries(counts) }));
    return;
  }
  res.statusCode = 404;
  res.end();
});
if (isMainThread) {
  server.listen(0, '127.0.0.1', () => {
    if (process.env.BENCH_IO_COUNT_FILE)
      writeFileSync(process.env.BENCH_IO_COUNT_FILE, String(server.address().port));
  });
  server.unref();
}
