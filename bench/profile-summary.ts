/**
 * Summarises a V8 .cpuprofile (from BENCH_PROFILE): the functions with the most self time, and
 * the packages they belong to.
 * `ts-node --swc bench/profile-summary.ts <file.cpuprofile> [--window <windows.json> <scenario>]`
 * counts only the samples taken while that scenario's saturating run ran (requests, not start-up).
 * `--phases` adds where a request's CPU goes by phase of the request path (PHASES below), in µs
 * per request when the window says how many requests it served (build-cost.ts writes
 * `[from, to, requests]`).
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

const profile = JSON.parse(readFileSync(process.argv[2], 'utf8')) as {
  nodes: Node[];
  samples: number[];
  startTime: number;
  timeDeltas: number[];
};
const windowAt = process.argv.indexOf('--window');
const [from, to, requests] =
  windowAt > 0
    ? (
        JSON.parse(readFileSync(process.argv[windowAt + 1], 'utf8')) as Record<
          string,
          [number, number, number?]
        >
      )[process.argv[windowAt + 2]]
    : [-Infinity, Infinity, undefined];
const hits = new Map<number, number>();
let at = profile.startTime;
let total = 0;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i];
  if (at < from || at > to) return;
  hits.set(id, (hits.get(id) ?? 0) + 1);
  total += 1;
});
/**
 * The sampling interval (the median gap between samples). A sample stands for one interval of
 * the thread running: on a loaded machine the gap after a sample also holds the time the
 * process waited for a core, which is not its CPU.
 */
const interval = (() => {
  const sorted = [...profile.timeDeltas].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
})();
const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
const keyOf = (node: Node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url
    .replace(/^file:\/\//, '')
    .replace(/.*node_modules\//, 'nm:')
    .replace(/.*\/dist\//, 'dist/');
  return { file, key: `${functionName || '(anonymous)'} ${file}:${lineNumber}` };
};
// Inclusive time: each sample counts once for every distinct function on its stack.
const parent = new Map<number, Node>();
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node);
const inclusive = new Map<string, number>();
for (const [id, n] of hits) {
  const seen = new Set<string>();
  for (let node = byId.get(id); node; node = parent.get(node.id)) seen.add(keyOf(node).key);
  for (const k of seen) inclusive.set(k, (inclusive.get(k) ?? 0) + n);
}
for (const node of profile.nodes) {
  const n = hits.get(node.id) ?? 0;
  if (!n) continue;
  const { functionName } = node.callFrame;
  const { file, key } = keyOf(node);
  byFunction.set(key, (byFunction.get(key) ?? 0) + n);
  const pkg =
    /^nm:((@[^/]+\/)?[^/]+)/.exec(file)?.[1] ??
    (file.startsWith('dist/')
      ? file.split('/').slice(0, 2).join('/')
      : functionName.startsWith('(')
        ? functionName
        : 'node');
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + n);
}
const top = (m: Map<string, number>, k: number) =>
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([name, n]) => `${((100 * n) / total).toFixed(1).padStart(5)}%  ${name}`);
// --match <regex>: the inclusive list shows the functions whose key matches (default: ours).
const matchAt = process.argv.indexOf('--match');
const match = new RegExp(matchAt > 0 ? process.argv[matchAt + 1] : ' dist/');
const ours = new Map([...inclusive].filter(([k]) => match.test(k)));
process.stdout.write(
  `samples: ${total}\n\nby package:\n${top(byPackage, 25).join('\n')}\n\nby function (self):\n${top(byFunction, 40).join('\n')}\n\ninclusive (${match.source}):\n${top(ours, 40).join('\n')}\n`,
);

/**
 * The request path's phases, each a test on one stack frame (function name and file, as keyOf
 * writes them). A sample goes to the phase of the innermost frame of its stack that matches one.
 * A generic phase (a driver, the reply, the frameworks) yields to an owning phase further up the
 * stack (the database under the usage flush counts as usage), but never across a dispatching
 * frame (Express's router, Nest's route and middleware runners): a middleware that calls next()
 * does not own the rest of the request. A socket write is its own phase, named by what wrote it
 * (the kernel's share of a loopback write lands on the writer).
 */
interface Phase {
  name: string;
  test: RegExp;
  /** Yields to an owning phase further up the stack. */
  generic?: boolean;
  /** Claims the generic phases below it. */
  owns?: boolean;
}

const PHASES: Phase[] = [
  { name: 'garbage collector', test: /^\(garbage collector\)/ },
  { name: 'idle', test: /^\(idle\)/ },
  {
    name: 'usage rows (middleware, batch writes)',
    test: /dist\/usage\/(usage-recording|usage-recorder|insert-usage|rollups)|nm:uuid/,
    owns: true,
  },
  {
    name: 'request log line and id (pino)',
    test: /dist\/common\/logging\/(request-log|line-writer|logging\.module)|nm:pino|nm:@pinojs|nm:nestjs-pino|nm:fast-redact/,
    owns: true,
  },
  {
    name: 'request context (AsyncLocalStorage)',
    test: /async_local_storage|async_context_frame|dist\/common\/logging\/request-context/,
  },
  { name: 'metrics (prom-client)', test: /dist\/metrics\/|nm:prom-client/, owns: true },
  { name: 'in-flight count', test: /dist\/lifecycle\/in-flight/ },
  { name: 'API-key auth', test: /dist\/auth\/|nm:@nestjs\/jwt|nm:jose/, owns: true },
  {
    name: 'monthly quota and rate limit',
    test: /dist\/usage\/(quota|rate-limit)|nm:@nestjs\/throttler|dist\/throttler|nm:ioredis|nm:redis-parser|nm:@ioredis/,
    owns: true,
  },
  { name: 'chain RPC client (undici)', test: /nm:undici|dist\/chain\/json-rpc-http/ },
  {
    name: 'handler (controller and service)',
    test: /dist\/(defi-builder|compliance|chain|accounts)\//,
    owns: true,
  },
  {
    name: 'validation (pipes, guard, class-validator)',
    test: /nm:class-validator|nm:class-transformer|dist\/common\/validation/,
    owns: true,
  },
  {
    name: 'body parsing',
    test: /nm:body-parser|nm:raw-body|nm:content-type|nm:type-is|nm:media-typer|dist\/bootstrap\/body-parsing/,
  },
  {
    name: 'security headers (helmet, CORS)',
    test: /nm:helmet|nm:cors|dist\/bootstrap\/http-security/,
  },
  {
    name: 'database driver',
    test: /nm:typeorm|nm:pg|nm:pg-protocol|nm:better-sqlite3/,
    generic: true,
  },
  {
    name: 'reply (JSON, headers, end)',
    test: /nm:express\/lib\/response|dist\/bootstrap\/http-adapter|_http_outgoing|_http_server|nm:@nestjs\/platform-express\/adapters|nm:@nestjs\/core\/router\/router-response-controller/,
    generic: true,
  },
  {
    name: 'HTTP parsing and sockets (node)',
    test: /_http_common|_http_incoming|node:net|stream_base_commons|^(onStreamRead|parserOnHeadersComplete|parserOnIncoming|parserOnBody|execute) /,
    generic: true,
  },
  {
    name: 'Nest (router, guards, pipes, interceptors)',
    test: /nm:@nestjs\/(core|common)|nm:reflect-metadata|nm:rxjs/,
    generic: true,
  },
  {
    name: 'Express (router, app)',
    test: /nm:express|nm:router|nm:path-to-regexp|nm:parseurl|nm:finalhandler/,
    generic: true,
  },
];

/** Frames that run the next middleware or the route: nothing above them owns what runs below. */
const DISPATCH =
  /nm:router\/(index|lib\/layer)\.js|nm:express\/lib\/application\.js|nm:@nestjs\/core\/(router\/(router-execution-context|router-proxy)|middleware\/middleware-module|guards\/guards-consumer|pipes\/pipes-consumer)/;

/** What wrote to a socket: the first of these up the writing frame's stack. */
const WRITERS: Array<[string, RegExp]> = [
  ['the response', /nm:express\/lib\/response|_http_outgoing|_http_server/],
  ['the database', /nm:pg|nm:pg-protocol/],
  ['Redis', /nm:ioredis/],
  ['the chain RPC', /nm:undici/],
  ['the log line', /dist\/common\/logging|nm:pino/],
];
const WRITE = /^(writev|writeBuffer|writeUtf8String|writeLatin1String|writeAsciiString) /;

function phaseOf(id: number): string {
  const leaf = byId.get(id)!;
  if (WRITE.test(keyOf(leaf).key)) {
    for (let node = parent.get(id); node; node = parent.get(node.id)) {
      const writer = WRITERS.find(([, test]) => test.test(keyOf(node!).key));
      if (writer) return `socket writes: ${writer[0]}`;
    }
    return 'socket writes: other';
  }
  let found: Phase | undefined;
  for (let node: Node | undefined = leaf; node; node = parent.get(node.id)) {
    const key = keyOf(node).key;
    if (!found) {
      found = PHASES.find((p) => p.test.test(key));
      if (found && (!found.generic || DISPATCH.test(key))) return found.name;
    } else {
      if (DISPATCH.test(key)) break;
      const owner = PHASES.find((p) => p.owns && p.test.test(key));
      if (owner) return owner.name;
    }
  }
  return found?.name ?? 'other (timers, microtasks, node internals)';
}

function phases(): string {
  const byPhase = new Map<string, number>();
  for (const [id, n] of hits) {
    const phase = phaseOf(id);
    byPhase.set(phase, (byPhase.get(phase) ?? 0) + n * interval);
  }
  const busyRows = [...byPhase].filter(([p]) => p !== 'idle');
  const busy = busyRows.reduce((a, [, us]) => a + us, 0);
  const rows = busyRows
    .sort((a, b) => b[1] - a[1])
    .map(
      ([p, us]) =>
        `| ${p} | ${((100 * us) / busy).toFixed(1)} % |${requests ? ` ${(us / requests).toFixed(1)} |` : ''}`,
    );
  const perRequest = requests ? ` ${(busy / requests).toFixed(1)} |` : '';
  return (
    `phases of the busy samples${requests ? ` (${requests} requests)` : ''}:\n\n` +
    `| phase | share of busy |${requests ? ' µs per request |' : ''}\n|---|---|${requests ? '---|' : ''}\n` +
    `${rows.join('\n')}\n| all busy | 100 % |${perRequest}\n\n`
  );
}

if (process.argv.includes('--phases')) process.stdout.write(phases());
const detailAt = process.argv.indexOf('--phase-detail');
if (detailAt > 0) {
  const wanted = process.argv[detailAt + 1];
  const fns = new Map<string, number>();
  for (const [id, n] of hits) {
    if (!phaseOf(id).startsWith(wanted)) continue;
    const k = keyOf(byId.get(id)!).key;
    fns.set(k, (fns.get(k) ?? 0) + n * interval);
  }
  process.stdout.write(
    `${wanted}: self time by function, µs per request\n${[...fns]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 30)
      .map(([k, us]) => `${(us / (requests ?? 1)).toFixed(2).padStart(7)}  ${k}`)
      .join('\n')}\n`,
  );
}
