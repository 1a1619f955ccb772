import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Each case runs in a fresh node process (the settings change how V8 collects, for good): ~60 MB
 * that stays alive, ~150 MB that lives long enough to reach the old generation and is then
 * dropped, as start-up leaves it. Before the first full collection V8's limit is far above that,
 * so nothing collects the dropped part on its own; settleHeap does, once.
 */
const CHILD = `
const { limitHeapGrowth, settleHeap } = require(${JSON.stringify(join(__dirname, 'heap'))});
const settle = process.argv[1] === 'settle';
limitHeapGrowth(40);
const live = [];
for (let i = 0; i < 600000; i += 1) live.push({ i, s: 'live' + i });
let startUp = [];
for (let i = 0; i < 1500000; i += 1) startUp.push({ i, s: 'start-up' + i });
startUp = null;
const before = process.memoryUsage().heapUsed;
if (settle) settleHeap();
const after = process.memoryUsage().heapUsed;
process.stdout.write(JSON.stringify({ beforeMb: before / 2 ** 20, afterMb: after / 2 ** 20, live: live.length }));
`;

function heapUsedMb(mode: 'settle' | 'leave'): { beforeMb: number; afterMb: number } {
  const out = execFileSync(
    process.execPath,
    // No memory reducer: it would start a full collection on a timer on a slow machine.
    ['--no-memory-reducer', '-r', 'ts-node/register/transpile-only', '-e', CHILD, mode],
    { env: { ...process.env, TS_NODE_SWC: 'true' }, encoding: 'utf8' },
  );
  const result = JSON.parse(out) as { beforeMb: number; afterMb: number; live: number };
  expect(result.live).toBe(600000);
  return result;
}

describe('settleHeap', () => {
  it('collects what start-up left in the old generation, and keeps what lives', () => {
    const left = heapUsedMb('leave');
    const settled = heapUsedMb('settle');
    // Without it the dropped ~150 MB is still on the heap; with it, only what lives (~60 MB).
    expect(left.afterMb).toBeGreaterThan(150);
    expect(settled.beforeMb).toBeGreaterThan(150);
    expect(settled.afterMb).toBeLessThan(100);
    expect(settled.afterMb).toBeGreaterThan(30);
  }, 60_000);
});
