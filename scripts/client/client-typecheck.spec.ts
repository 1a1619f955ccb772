import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Errors `tsc -p clients/typescript` may report: none. An operation without a response schema
 * would make its `data` undefined in the generated types and show up here.
 */
const PENDING_ERRORS: string[] = [];

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
