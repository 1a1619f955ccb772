import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

/**
 * The docs stay true to the code: every setting the config reads is documented in README.md,
 * every route of the published contract is named there, and every relative link in the Markdown
 * pages resolves. Runs in the unit project, so `npm test` (and CI) fails on a gap.
 */
const ROOT = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const README = read('README.md');

/** Read by the config but not a setting: jest sets it; the config only tells a test run apart. */
const NOT_SETTINGS = new Set(['NODE_ENV']);

function configSettings(): string[] {
  const dir = join(ROOT, 'src', 'config');
  const names = new Set<string>();
  for (const file of readdirSync(dir, { recursive: true }) as string[]) {
    if (!file.endsWith('.ts') || file.endsWith('.spec.ts')) continue;
    const source = readFileSync(join(dir, file), 'utf8');
    for (const pattern of [
      /env[A-Z]\w*\(\s*env,\s*'([A-Z][A-Z0-9_]+)'/g,
      /\benv\.([A-Z][A-Z0-9_]+)/g,
      /\benv\['([A-Z][A-Z0-9_]+)'\]/g,
    ])
      for (const match of source.matchAll(pattern)) names.add(match[1]);
  }
  return [...names].filter((name) => !NOT_SETTINGS.has(name)).sort();
}

function markdownPages(): string[] {
  const pages = ['README.md', 'bench/README.md', 'clients/typescript/README.md'];
  for (const dir of ['docs', 'circuits'])
    if (existsSync(join(ROOT, dir)))
      for (const file of readdirSync(join(ROOT, dir)))
        if (file.endsWith('.md')) pages.push(`${dir}/${file}`);
  return pages;
}

describe('the docs', () => {
  it('find the settings the config reads (a sanity floor: the patterns still match)', () => {
    expect(configSettings().length).toBeGreaterThan(50);
    expect(configSettings()).toEqual(
      expect.arrayContaining(['PORT', 'DATABASE_URL', 'JWT_SECRET']),
    );
  });

  it('document every setting the config reads in README.md', () => {
    const missing = configSettings().filter((name) => !README.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });

  it('name every route of the published contract in README.md', () => {
    const doc = JSON.parse(read('clients/typescript/openapi.json')) as {
      paths: Record<string, unknown>;
    };
    const missing = Object.keys(doc.paths).filter((path) => {
      // The /api/v1 prefix may be left out (spec §4 paths answer too); {param} may be a value.
      const short = path.replace(/^\/api\/v1/, '');
      const escaped = short.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^\\s/`]+');
      return !new RegExp(`${escaped}(?![\\w-])`).test(README);
    });
    expect(missing).toEqual([]);
  });

  it('link only to files that exist', () => {
    const broken: string[] = [];
    for (const page of markdownPages()) {
      for (const [, target] of read(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:|#)/.test(target)) continue;
        const path = normalize(join(ROOT, dirname(page), target.split('#')[0]));
        if (!existsSync(path)) broken.push(`${page}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
