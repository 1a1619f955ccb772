import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SUPPORTED_NODE, unsupportedRuntime } from './supported-runtime';

const root = join(__dirname, '..', '..');

describe('unsupportedRuntime', () => {
  it('names the same line as package.json engines and .nvmrc', () => {
    const engines = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;
    expect(engines).toBe(SUPPORTED_NODE.range);
    const pinned = readFileSync(join(root, '.nvmrc'), 'utf8').trim();
    expect(unsupportedRuntime(pinned)).toBeUndefined();
  });

  it('accepts this process (the suite runs on the supported runtime)', () => {
    expect(unsupportedRuntime(process.version)).toBeUndefined();
  });

  it.each(['v20.20.2', '22.22.0', 'v24.10.0', 'v26.1.0'])(
    'refuses %s, saying how to start instead',
    (version) => {
      const reason = unsupportedRuntime(version);
      expect(reason).toContain(`this is v${version.replace(/^v/, '')}`);
      expect(reason).toContain('node_modules/.bin/node');
    },
  );
});
