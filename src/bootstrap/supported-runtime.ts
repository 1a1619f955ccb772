/**
 * The Node.js line the service runs on: package.json `engines` and `.nvmrc` say the same
 * (supported-runtime.spec.ts). `npm start`, `npm test` and `npm run cli` find it in
 * node_modules/.bin (scripts/runtime/select-node.cjs); a start by hand on another Node would fail
 * later and darkly (better-sqlite3 built for another ABI), so the start says so first.
 */
export const SUPPORTED_NODE = { major: 24, minor: 11, range: '^24.11.0' } as const;

/** Why `version` cannot run the service, or undefined when it can. */
export function unsupportedRuntime(version: string): string | undefined {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  if (major === SUPPORTED_NODE.major && minor >= SUPPORTED_NODE.minor) return undefined;
  return (
    `This service runs on Node.js ${SUPPORTED_NODE.range} (package.json engines, .nvmrc); this is ` +
    `v${version.replace(/^v/, '')}. Start it with npm start (or npm run cli), which use ` +
    `node_modules/.bin/node, or run dist/ with node_modules/.bin/node or a Node ${SUPPORTED_NODE.major} install.`
  );
}

/** Ends the process with the reason when this Node cannot run the service. */
export function refuseUnsupportedRuntime(): void {
  const reason = unsupportedRuntime(process.versions.node);
  if (reason === undefined) return;
  process.stderr.write(`${reason}\n`);
  process.exit(1);
}
