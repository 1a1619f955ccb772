import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The heap settings change how V8 collects, so each case runs in a fresh node process: ~60 MB
 * kept alive, then a stream of short-lived objects, a few of which outlive a scavenge (as requests
 * in flight do). Measured: the old generation's committed size once the stream has run.
 */
const CHILD = `
const { limitHeapGrowth, settleHeap } = require(${JSON.stringify(join(__dirname, 'heap'))});
const percent = Number(process.argv[1]);
limitHeapGrowth(percent);
const live = [];
for (let i = 0; i < 600000; i += 1) live.push({ i, s: 'live' + i });
if (percent > 0) settleHeap();
const recent = new Array(20000);
for (let i = 0; i < 4000000; i += 1) recent[i % recent.length] = { s: 'short-lived' + i, a: [i, i] };
const old = require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'old_space');
process.stdout.write(JSON.stringify({ oldMb: old.space_size / 2 ** 20, live: live.length }));
`;

function oldSpaceMbWith(percent: number): number {
  const out = execFileSync(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', '-e', CHILD, String(percent)],
    { env: { ...process.env, TS_NODE_SWC: 'true' }, encoding: 'utf8' },
  );
  const { oldMb, live } = JSON.parse(out) as { oldMb: number; live: number };
  expect(live).toBe(600000);
  return oldMb;
}

describe('heap growth settings', () => {
  it('keep the old generation well below what V8 lets it grow to on its own', () => {
    const v8Default = oldSpaceMbWith(0);
    const limited = oldSpaceMbWith(40);
    // ~60 MB live: left alone V8 lets old space pass 2x that before compacting; at 40 % it stays
    // within ~1.4x of what lives plus what the stream promotes between two full collections.
    expect(limited).toBeLessThan(v8Default * 0.75);
  }, 60_000);
});
