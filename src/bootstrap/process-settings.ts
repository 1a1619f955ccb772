/**
 * Settings of the service's node process that only take effect at start: glibc sizes its malloc
 * arenas and V8 its worker pool before any of our code runs. `npm start`, the docker-compose
 * command, the process tests and the bench all launch `node dist/main.js` with these;
 * process-settings.spec.ts keeps package.json and docker-compose.yml in step with them.
 *
 * `--v8-pool-size=1`: one V8 worker thread (concurrent marking, sweeping, compiling) instead of 4
 * whatever the machine. Measured in the service-only bench (docs/architecture.md, "Why hand-written"): RSS under
 * load stayed at 198-245 MB over seven full runs with it, and reached 258-276 MB in runs without
 * it; while full collections were frequent it also cut the half-load p99 (same-minute pairs,
 * preflight 31-57 -> 11-14 ms), since the marking threads no longer took the event loop's core on
 * a 2-vCPU machine. CPU per request within the run-to-run spread. The service scales out as more
 * processes, each one event loop, not as more V8 threads in one.
 *
 * `MALLOC_ARENA_MAX=2`: native allocations of the service's threads (libuv's pool, V8's GC and
 * compiler threads, the proof worker) share two arenas instead of up to 8 per core, each keeping
 * the memory it once held. Measured with the bench's swap build (docs/architecture.md, "Why hand-written"): RSS
 * under load 12-18 MB lower, CPU per request and GC time unchanged (2.09 against 2.06 ms, the
 * same 2,000 requests counted in the process). A smaller young generation
 * (`--max-semi-space-size=8`) saved another 15 MB but doubled the scavenges and cost 25 % more
 * CPU per swap build, so it is not used.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--v8-pool-size=1'];
export const SERVICE_PROCESS_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/** The shell command that starts the built service, as package.json and docker-compose.yml write it. */
export function serviceStartCommand(): string {
  const env = Object.entries(SERVICE_PROCESS_ENV).map(([name, value]) => `${name}=${value}`);
  return [...env, 'node', ...SERVICE_NODE_FLAGS, 'dist/main.js'].join(' ');
}
