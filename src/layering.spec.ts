import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { preProcessFile } from 'typescript';

/**
 * Imports point down (issue 10): a folder of src/ may import its own level and the levels below,
 * never a higher one; within a level the folders' imports form no cycle; and no feature reaches
 * into another feature's entities (it calls that module's service). The wiring level (AppModule,
 * main, bootstrap, the CLI, the database's entity list) may import anything.
 */
const LEVELS: readonly (readonly string[])[] = [
  // Infrastructure: errors, config, logging, shutdown, readiness, metrics.
  ['common', 'config', 'lifecycle', 'health', 'metrics'],
  // The activity log every feature records into; its sinks (audit, webhooks) sit above. Mail to
  // the addresses people give (sign-up and invitation links).
  ['events', 'mail'],
  ['chain', 'accounts', 'auth'],
  // Receipts sign and keep what the DeFi builder tells them; they read the compliance policy.
  ['usage', 'compliance', 'audit', 'receipts'],
  // Trade rules (issue 54): the policy's trading rules applied to a build's facts, the daily-limit
  // ledger and the per-trade authorization; the DeFi builder calls them in its preflight phase.
  // Four eyes (issue 55): approval requests beside the trade rules; the pipeline calls the gate.
  ['trading', 'approvals'],
  // The dashboard (static page) calls the API over HTTP like any client; it imports no feature.
  // Webhooks watch compliance sessions and relayed transactions.
  ['defi-builder', 'dashboard', 'webhooks'],
  ['app.module.ts', 'main.ts', 'bootstrap', 'cli', 'database', 'layering.spec.ts'],
];
const WIRING = LEVELS.length - 1;

/** Violations still present on this branch, each removed by the change that fixes it. */
const KNOWN_EXCEPTIONS = new Set<string>([]);

const SRC = resolve(__dirname);

interface Edge {
  from: string;
  to: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Resolves a relative specifier the way Node/TypeScript do (file.ts, dir/index.ts, file.json). */
function resolveSpecifier(fromFile: string, specifier: string): string {
  const base = resolve(dirname(fromFile), specifier);
  const candidate = [`${base}.ts`, join(base, 'index.ts'), base].find(
    (f) => existsSync(f) && statSync(f).isFile(),
  );
  if (!candidate) throw new Error(`${relative(SRC, fromFile)}: cannot resolve '${specifier}'`);
  return candidate;
}

const specifiersOf = (file: string): string[] =>
  preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((i) => i.fileName);

/** Every relative import, export-from, import() and require() edge between files of src/. */
function importEdges(): Edge[] {
  const root = resolve(SRC, '..');
  return sourceFiles(SRC).flatMap((file) =>
    specifiersOf(file)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolveSpecifier(file, specifier))
      // Files outside src/ (contract artifacts, circuits) are data, not layers.
      .filter((target) => target.startsWith(`${SRC}/`))
      .map((target) => ({ from: relative(root, file), to: relative(root, target) })),
  );
}

const folderOf = (path: string): string => path.split('/')[1];

function levelOf(folder: string): number {
  const level = LEVELS.findIndex((names) => names.includes(folder));
  if (level < 0) throw new Error(`src/${folder} has no level: add it to LEVELS`);
  return level;
}

/** Why an edge breaks the layering, or null when it is allowed. */
export function layeringViolation(edge: Edge): string | null {
  const [from, to] = [folderOf(edge.from), folderOf(edge.to)];
  if (from === to) return null;
  const [fromLevel, toLevel] = [levelOf(from), levelOf(to)];
  if (fromLevel === WIRING) return null;
  if (toLevel > fromLevel) return `${from} (level ${fromLevel}) imports ${to} (level ${toLevel})`;
  if (edge.to.endsWith('.entity.ts')) return `${from} uses ${to}'s entity instead of its service`;
  return null;
}

/** Folder cycles within one level, e.g. auth -> usage -> auth. */
function sameLevelCycles(edges: Edge[]): string[] {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    const [a, b] = [folderOf(from), folderOf(to)];
    if (a === b || levelOf(a) !== levelOf(b) || levelOf(a) === WIRING) continue;
    graph.set(a, (graph.get(a) ?? new Set()).add(b));
  }
  const reaches = (start: string, target: string, seen = new Set<string>()): boolean =>
    [...(graph.get(start) ?? [])].some(
      (next) =>
        next === target || (!seen.has(next) && (seen.add(next), reaches(next, target, seen))),
    );
  return [...graph.keys()].filter((folder) => reaches(folder, folder));
}

describe('src/ layering', () => {
  const edges = importEdges();
  const key = (e: Edge) => `${e.from} -> ${e.to}`;

  it('reads the real import graph', () => {
    // Guards against a walker that finds nothing and so passes vacuously.
    expect(edges.length).toBeGreaterThan(200);
    expect(edges.map(key)).toContain(
      'src/usage/usage-recording.middleware.ts -> src/auth/principal.ts',
    );
  });

  it('has no import from a lower folder into a higher one, nor into another feature entity', () => {
    const violations = edges
      .filter((e) => !KNOWN_EXCEPTIONS.has(key(e)))
      .map((e) => [key(e), layeringViolation(e)])
      .filter(([, why]) => why !== null);
    expect(violations).toEqual([]);
  });

  it('has no import cycle between folders of one level', () => {
    expect(sameLevelCycles(edges)).toEqual([]);
  });

  it('keeps only exceptions that still exist', () => {
    const present = new Set(edges.map(key));
    expect([...KNOWN_EXCEPTIONS].filter((e) => !present.has(e))).toEqual([]);
  });

  it("reads Nest's and the throttler's internals in one adapter only (common/validation/route-params.ts)", () => {
    const internal = /^@nestjs\/[^/]+\/(?!index$)/; // a path inside a @nestjs package
    const readers = sourceFiles(SRC)
      .filter((file) => !file.endsWith('.spec.ts'))
      .filter((file) => specifiersOf(file).some((s) => internal.test(s)))
      .map((file) => relative(SRC, file));
    expect(readers).toEqual(['common/validation/route-params.ts']);
  });

  it.each([
    ['src/auth/x.guard.ts', 'src/usage/usage-recorder.service.ts'],
    ['src/config/x.config.ts', 'src/chain/devnet/constants.ts'],
    ['src/chain/x.ts', 'src/defi-builder/y.ts'],
    ['src/accounts/x.service.ts', 'src/auth/users/user.entity.ts'],
  ])('rejects %s -> %s', (from, to) => {
    expect(layeringViolation({ from, to })).not.toBeNull();
  });

  it.each([
    ['src/usage/x.ts', 'src/auth/principal.ts'],
    ['src/accounts/x.service.ts', 'src/auth/users/users.service.ts'],
    ['src/defi-builder/x.ts', 'src/compliance/y.ts'],
    ['src/database/entities.ts', 'src/auth/users/user.entity.ts'],
  ])('allows %s -> %s', (from, to) => {
    expect(layeringViolation({ from, to })).toBeNull();
  });
});
