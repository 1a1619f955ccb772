/**
 * Summarises a V8 .cpuprofile (from BENCH_PROFILE): the functions with the most self time, and
 * the packages they belong to. `ts-node --swc bench/profile-summary.ts <file.cpuprofile>`
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

const profile = JSON.parse(readFileSync(process.argv[2], 'utf8')) as {
  nodes: Node[];
  samples: number[];
};
const hits = new Map<number, number>();
for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
const total = profile.samples.length;
const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
for (const node of profile.nodes) {
  const n = hits.get(node.id) ?? 0;
  if (!n) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url
    .replace(/^file:\/\//, '')
    .replace(/.*node_modules\//, 'nm:')
    .replace(/.*\/dist\//, 'dist/');
  const key = `${functionName || '(anonymous)'} ${file}:${lineNumber}`;
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
process.stdout.write(
  `samples: ${total}\n\nby package:\n${top(byPackage, 25).join('\n')}\n\nby function (self):\n${top(byFunction, 40).join('\n')}\n`,
);
