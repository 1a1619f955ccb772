import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serviceStartCommand } from './process-settings';

const ROOT = join(__dirname, '..', '..');

describe('the service process settings', () => {
  it('are the ones npm start, npm run start:prod and the image use', () => {
    expect(serviceStartCommand()).toBe('MALLOC_ARENA_MAX=2 node --v8-pool-size=1 dist/main.js');
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    // The production start runs the built service as it is, never building (issue 58); npm start
    // builds first only when a source changed since the last build.
    expect(pkg.scripts['start:prod']).toBe(serviceStartCommand());
    expect(pkg.scripts.start).toBe(
      'node scripts/build/build-if-changed.cjs && npm run -s start:prod',
    );
    // The image (docker-compose's replicas) sets the same environment and runs node as the
    // container's main process, in exec form, so signals reach it.
    const words = serviceStartCommand().split(' ');
    const [assignments, argv] = [
      words.slice(0, words.indexOf('node')),
      words.slice(words.indexOf('node')),
    ];
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    const env = dockerfile.match(/^ENV (.+)$/gm)?.join(' ') ?? '';
    for (const assignment of assignments) expect(env).toContain(assignment);
    expect(dockerfile).toMatch(
      new RegExp(`^CMD ${escape(JSON.stringify(argv).replace(/,/g, ', '))}$`, 'm'),
    );
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
