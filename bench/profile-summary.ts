/**
 * Summarises a V8 .cpuprofile (from BENCH_PROFILE): the functions with the most self time, and
 * the packages they belong to.
 * `ts-node --swc bench/profile-summary.ts <file.cpuprofile> [--window <windows.json> <scenario>]`
 * counts only the samples taken while that scenario's saturating run ran (requests, not start-up).
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

const profile = JSON.parse(readFileSync(process.argv[2], 'utf8')) as {
  nodes: Node[];
  samples: number[];
  startTime: number;
  timeDeltas: number[];
};
const windowAt = process.argv.indexOf('--window');
const [from, to] =
  windowAt > 0
    ? (
        JSON.parse(readFileSync(process.argv[windowAt + 1], 'utf8')) as Record<
          string,
          [number, number]
        >
      )[process.argv[windowAt + 2]]
    : [-Infinity, Infinity];
const hits = new Map<number, number>();
let at = profile.startTime;
let total = 0;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i];
  if (at < from || at > to) return;
  hits.set(id, (hits.get(id) ?? 0) + 1);
  total += 1;
});
const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
const keyOf = (node: Node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url
    .replace(/^file:\/\//, '')
    .replace(/.*node_modules\//, 'nm:')
    .replace(/.*\/dist\//, 'dist/');
  return { file, key: `${functionName || '(anonymous)'} ${file}:${lineNumber}` };
};
// Inclusive time: each sample counts once for every distinct function on its stack.
const parent = new Map<number, Node>();
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node);
const inclusive = new Map<string, number>();
for (const [id, n] of hits) {
  const seen = new Set<string>();
  for (let node = byId.get(id); node; node = parent.get(node.id)) seen.add(keyOf(node).key);
  for (const k of seen) inclusive.set(k, (inclusive.get(k) ?? 0) + n);
}
for (const node of profile.nodes) {
  const n = hits.get(node.id) ?? 0;
  if (!n) continue;
  const { functionName } = node.callFrame;
  const { file, key } = keyOf(node);
  byFunction.set(key, (byFunction.get(key) ?? 0) + n);
  const pkg =
    /^nm:((@[^/]+\/)?[^/]+)/.exec(file)?.[1] ??
    (file.startsWith('dist/')
      ? file.split('/').slice(0, 2).join('/')
      : functionName.startsWith('(')
        ? functionName
        : 'node');
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + n);
}
const top = (m: Map<string, number>, k: number) =>
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([name, n]) => `${((100 * n) / total).toFixed(1).padStart(5)}%  ${name}`);
// --match <regex>: the inclusive list shows the functions whose key matches (default: ours).
const matchAt = process.argv.indexOf('--match');
const match = new RegExp(matchAt > 0 ? process.argv[matchAt + 1] : ' dist/');
const ours = new Map([...inclusive].filter(([k]) => match.test(k)));
process.stdout.write(
  `samples: ${total}\n\nby package:\n${top(byPackage, 25).join('\n')}\n\nby function (self):\n${top(byFunction, 40).join('\n')}\n\ninclusive (${match.source}):\n${top(ours, 40).join('\n')}\n`,
);
