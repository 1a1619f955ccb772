import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serviceStartCommand } from './process-settings';

const ROOT = join(__dirname, '..', '..');

describe('the service process settings', () => {
  it('are the ones npm start and docker-compose use', () => {
    expect(serviceStartCommand()).toBe('MALLOC_ARENA_MAX=2 node --v8-pool-size=1 dist/main.js');
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.start).toBe(`npm run -s build && ${serviceStartCommand()}`);
    // Each replica runs the command as the container's main process (exec: signals reach node).
    expect(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')).toContain(
      `sh -c "exec env ${serviceStartCommand()}"`,
    );
  });
});
