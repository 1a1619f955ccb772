import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/**
 * The docs stay true to the code: every setting the service reads is in the operators' guide
 * (docs/operators/), every
 * route of the published contract is in the integrators' guide (docs/integrators.md and its task
 * pages, docs/integrators/), every relative link (and its #anchor) in the Markdown pages resolves,
 * and the pages keep the sizes that make them readable. Runs in the unit project, so `npm test`
 * (and CI) fails on a gap. The shell blocks of README.md and of the integrators' guide are run by
 * test/docs/shell-blocks.e2e-spec.ts.
 */
const ROOT = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** Read by the config but not a setting: jest sets it; the config only tells a test run apart. */
const NOT_SETTINGS = new Set(['NODE_ENV']);

/** Source files of the service (no specs), relative to the root. */
function sources(dir: string): string[] {
  return (readdirSync(join(ROOT, dir), { recursive: true }) as string[])
    .filter((file) => /\.(ts|js|cjs)$/.test(file) && !/\.spec\.ts$/.test(file))
    .map((file) => join(dir, file));
}

/** Every env variable the config namespaces read, and any `process.env.X` read elsewhere in src. */
function settings(): string[] {
  const names = new Set<string>();
  for (const file of sources('src')) {
    const source = read(file);
    const patterns = [
      /\bprocess\.env\.([A-Z][A-Z0-9_]+)/g,
      /\bprocess\.env\['([A-Z][A-Z0-9_]+)'\]/g,
    ];
    if (file.startsWith(join('src', 'config')))
      patterns.push(
        /env[A-Z]\w*\(\s*env,\s*'([A-Z][A-Z0-9_]+)'/g,
        /\benv\.([A-Z][A-Z0-9_]+)/g,
        /\benv\['([A-Z][A-Z0-9_]+)'\]/g,
      );
    for (const pattern of patterns)
      for (const match of source.matchAll(pattern)) names.add(match[1]);
  }
  return [...names].filter((name) => !NOT_SETTINGS.has(name)).sort();
}

function markdownPages(): string[] {
  const pages = ['README.md', 'clients/typescript/README.md'];
  for (const dir of ['docs', 'circuits', 'bench'])
    if (existsSync(join(ROOT, dir)))
      for (const file of readdirSync(join(ROOT, dir), { recursive: true }) as string[])
        if (file.endsWith('.md')) pages.push(join(dir, file));
  return pages;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(page: string): Set<string> {
  const found = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of read(page).split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.+)$/.exec(line);
    if (!heading) continue;
    const base = anchorOf(heading[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    found.add(n ? `${base}-${n}` : base);
  }
  return found;
}

const lineCount = (page: string) => read(page).trimEnd().split('\n').length;

describe('the docs', () => {
  it('find the settings the service reads (a sanity floor: the patterns still match)', () => {
    expect(settings().length).toBeGreaterThan(50);
    expect(settings()).toEqual(
      expect.arrayContaining(['PORT', 'DATABASE_URL', 'JWT_SECRET', 'DEVNET_PORT']),
    );
  });

  it("document every setting the service reads in the operators' guide (docs/operators/)", () => {
    const operators = readdirSync(join(ROOT, 'docs', 'operators'))
      .filter((file) => file.endsWith('.md'))
      .map((file) => read(join('docs', 'operators', file)))
      .join('\n');
    const missing = settings().filter((name) => !operators.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });

  it("name every route of the published contract in the integrators' guide (docs/integrators.md and docs/integrators/)", () => {
    const integrators = [
      'docs/integrators.md',
      ...readdirSync(join(ROOT, 'docs', 'integrators'))
        .filter((file) => file.endsWith('.md'))
        .map((file) => join('docs', 'integrators', file)),
    ]
      .map(read)
      .join('\n');
    const doc = JSON.parse(read('clients/typescript/openapi.json')) as {
      paths: Record<string, unknown>;
    };
    const missing = Object.keys(doc.paths).filter((path) => {
      // The /api/v1 prefix may be left out (spec §4 paths answer too); {param} may be a value.
      const short = path.replace(/^\/api\/v1/, '');
      const escaped = short.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^\\s/`]+');
      return !new RegExp(`${escaped}(?![\\w-])`).test(integrators);
    });
    expect(missing).toEqual([]);
  });

  it('link only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const page of markdownPages()) {
      for (const [, target] of read(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:)/.test(target)) continue;
        const [file, anchor] = target.split('#');
        const path = file ? normalize(join(ROOT, dirname(page), file)) : join(ROOT, page);
        if (!existsSync(path)) broken.push(`${page}: ${target}`);
        else if (anchor && path.endsWith('.md') && !anchors(relative(ROOT, path)).has(anchor))
          broken.push(`${page}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("pin the README's set-up: one command installs and starts the service, one runs the suite, and CI runs that test command", () => {
    const block = /^## Set-up[^\n]*\n\n```bash no-run\n([\s\S]*?)\n```/m.exec(read('README.md'));
    const commands = block![1].split('\n').map((line) => line.replace(/\s+#.*$/, '').trim());
    expect(commands).toEqual(['npm run setup && npm start', 'npm test']);
    // The install runs npm on the pinned runtime (no EBADENGINE on a Node-20 machine).
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> })
      .scripts;
    expect(scripts.setup).toBe('bash scripts/runtime/install.sh');
    expect(read('scripts/runtime/install.sh')).toMatch(/fetch-node\.sh[\s\S]*exec npm ci "\$@"/);
    const ci = read('.ci/run').split('\n');
    expect(ci.filter((line) => /^npm test\b/.test(line))).toHaveLength(1);
    expect(ci.filter((line) => /^npm run -s setup\b/.test(line))).toHaveLength(1);
  });

  it('keep one short page per reader', () => {
    for (const guide of ['integrators', 'operators/README', 'architecture', 'security'])
      expect(existsSync(join(ROOT, 'docs', `${guide}.md`))).toBe(true);
    // Every guide is one page per task, each short enough to read through (issue 58): the
    // operators', the integrators' and the threat model's pages alike.
    const long = markdownPages()
      .filter((page) => page.startsWith('docs/'))
      .filter((page) => lineCount(page) >= 400);
    expect(long).toEqual([]);
    expect(lineCount('README.md')).toBeLessThanOrEqual(250);
    expect(lineCount('bench/README.md')).toBeLessThan(300);
  });
});
