/**
 * `npm run bench:object-spread`: what one object literal costs the old generation,
 * by how it is written. On Node 20 (V8 11.3) `{ ...step, symbol, spenderName, description }` (a
 * spread first, members after it) gives the copy a hidden class outside V8's transition tree, so
 * each call builds the following maps anew, in the old generation, where only a full collection
 * frees them. In the service that was 2-3 KB per swap build (describeApproval, the pipeline's
 * preflight request, the swap encoder's input) and a full collection every 6-9 s at half load
 * (bench/README.md, issue 17, "Seventh session"); eslint.config.mjs now refuses the form on the
 * request path. Prints old-generation bytes per call for each form and the ratio to the literal.
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { settleHeap } from '../src/bootstrap/heap';

const CALLS = Number(process.env.CALLS ?? 200_000);

interface Step {
  token: string;
  spender: string;
  kind: 'erc20' | 'permit2';
  transaction: { to: string; data: string };
}
const step = (i: number): Step => ({
  token: '0x4200000000000000000000000000000000000006',
  spender: '0x000000000022D473030F116dDEE9F6B43aC78BA3',
  kind: i % 2 ? 'erc20' : 'permit2',
  transaction: { to: '0x4200000000000000000000000000000000000006', data: `0x${i}` },
});

const forms: Record<string, (s: Step, i: number) => object> = {
  'literal, every member listed': (s, i) => ({
    token: s.token,
    spender: s.spender,
    kind: s.kind,
    transaction: s.transaction,
    symbol: 'WETH',
    spenderName: 'UniversalRouter',
    description: `d${i}`,
  }),
  'members first, spread last': (s, i) => ({
    symbol: 'WETH',
    spenderName: 'UniversalRouter',
    description: `d${i}`,
    ...s,
  }),
  'Object.assign({}, step, {...})': (s, i) =>
    Object.assign({}, s, { symbol: 'WETH', spenderName: 'UniversalRouter', description: `d${i}` }),
  'spread first, members after (was)': (s, i) => ({
    ...s,
    symbol: 'WETH',
    spenderName: 'UniversalRouter',
    description: `d${i}`,
  }),
};

const oldGeneration = () =>
  getHeapSpaceStatistics()
    .filter((space) => !space.space_name.startsWith('new_'))
    .reduce((sum, space) => sum + space.space_used_size, 0);

let sink: object | undefined;
function bytesPerCall(form: (s: Step, i: number) => object): number {
  for (let i = 0; i < 20_000; i++) sink = form(step(i), i); // warm-up: ICs, optimised code
  settleHeap(); // one full collection: each form starts from what is live
  const before = oldGeneration();
  for (let i = 0; i < CALLS; i++) sink = form(step(i), i);
  return (oldGeneration() - before) / CALLS;
}

const results = Object.entries(forms).map(([name, form]) => ({ name, bytes: bytesPerCall(form) }));
const base = Math.max(0.1, results[0].bytes);
process.stdout.write(
  `node ${process.version}, ${CALLS} calls per form; old-generation growth (no full GC in between)\n\n` +
    '| form | old-gen bytes / call | vs literal |\n|---|---|---|\n' +
    results
      .map((r) => `| ${r.name} | ${r.bytes.toFixed(1)} | ${(r.bytes / base).toFixed(1)}x |`)
      .join('\n') +
    '\n',
);
if (!sink) throw new Error('nothing was built');
