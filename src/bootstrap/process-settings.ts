/**
 * Settings of the service's node process that only take effect at start: V8 sizes its young
 * generation, and glibc its malloc arenas, before any of our code runs. `npm start`, the
 * docker-compose command, the process tests and the bench all launch `node dist/main.js` with
 * these; process-settings.spec.ts keeps package.json and docker-compose.yml in step with them.
 *
 * - `--max-semi-space-size=8`: the young generation may take 2 x 8 MB instead of V8's 2 x 16 MB.
 * - `MALLOC_ARENA_MAX=2`: native allocations of the service's threads (libuv's pool, V8's GC and
 *   compiler threads, the proof worker) share two arenas instead of up to 8 per core, each
 *   keeping the memory it once held.
 *
 * Together with the proof worker started on first use, RSS under the bench's load went from
 * 279-316 MB to ... (bench/README.md, issue 17).
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8'];
export const SERVICE_PROCESS_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/** The shell command that starts the built service, as package.json and docker-compose.yml write it. */
export function serviceStartCommand(): string {
  const env = Object.entries(SERVICE_PROCESS_ENV).map(([name, value]) => `${name}=${value}`);
  return [...env, 'node', ...SERVICE_NODE_FLAGS, 'dist/main.js'].join(' ');
}
