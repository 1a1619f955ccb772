import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS, SERVICE_PROCESS_ENV, serviceStartCommand } from './process-settings';

const ROOT = join(__dirname, '..', '..');

describe('the service process settings', () => {
  it('are the ones npm start and docker-compose use', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.start).toBe(`npm run -s build && ${serviceStartCommand()}`);
    expect(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')).toContain(
      `npm prune --omit=dev && ${serviceStartCommand()}"`,
    );
  });

  it('size the young generation of a node started with them', () => {
    const newSpaceMb = (flags: readonly string[]) =>
      Number(
        execFileSync(
          process.execPath,
          [
            ...flags,
            '-e',
            // Allocate enough for the young generation to grow to its limit.
            `let keep = []; for (let i = 0; i < 3e6; i += 1) { keep.push({ i }); if (keep.length > 2e5) keep = []; }
             const s = require('v8').getHeapSpaceStatistics().find((x) => x.space_name === 'new_space');
             process.stdout.write(String(s.space_size / 2 ** 20));`,
          ],
          { env: { ...process.env, ...SERVICE_PROCESS_ENV }, encoding: 'utf8' },
        ),
      );
    const tuned = newSpaceMb(SERVICE_NODE_FLAGS);
    const untuned = newSpaceMb([]);
    expect(tuned).toBeLessThanOrEqual(16);
    expect(untuned).toBeGreaterThan(tuned);
  });
});
