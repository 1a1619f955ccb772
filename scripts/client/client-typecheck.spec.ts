import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Errors `tsc -p clients/typescript` may still report: swap has no response schema
 * yet, so their `data` is `undefined` in the generated types. When their DTOs land and the types
 * are regenerated, these errors go and this list must be emptied (the test fails on stale entries).
 */
const PENDING_ERRORS = [
  "examples/integrator.ts: error TS18048: 'swap.data' is possibly 'undefined'.",
];

describe('clients/typescript under tsc --strict', () => {
  it('type-checks the client and the integrator example (but the pending schema gaps)', () => {
    const root = join(__dirname, '..', '..');
    const tsc = spawnSync(
      process.execPath,
      [require.resolve('typescript/bin/tsc'), '-p', 'clients/typescript'],
      { cwd: root, encoding: 'utf8' },
    );
    const errors = tsc.stdout
      .split('\n')
      .filter((line) => line.includes('error TS'))
      .map((line) => line.replace(/^clients\/typescript\//, '').replace(/\(\d+,\d+\)/, ''));
    expect(errors).toEqual(PENDING_ERRORS);
  }, 60_000);
});
