/**
 * Settings of the service's node process that only take effect at start: glibc sizes its malloc
 * arenas before any of our code runs. `npm start`, the docker-compose command, the process tests
 * and the bench all launch `node dist/main.js` with this environment; process-settings.spec.ts keeps
 * package.json and docker-compose.yml in step with them.
 *
 * `MALLOC_ARENA_MAX=2`: native allocations of the service's threads (libuv's pool, V8's GC and
 * compiler threads, the proof worker) share two arenas instead of up to 8 per core, each keeping
 * the memory it once held. Measured with the bench's swap build (bench/README.md, issue 17): RSS
 * under load 12-18 MB lower, CPU per request and GC time unchanged (2.09 against 2.06 ms, the
 * same 2,000 requests counted in the process). A smaller young generation
 * (`--max-semi-space-size=8`) saved another 15 MB but doubled the scavenges and cost 25 % more
 * CPU per swap build, so it is not used.
 */
export const SERVICE_PROCESS_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/** The shell command that starts the built service, as package.json and docker-compose.yml write it. */
export function serviceStartCommand(): string {
  const env = Object.entries(SERVICE_PROCESS_ENV).map(([name, value]) => `${name}=${value}`);
  return [...env, 'node', 'dist/main.js'].join(' ');
}
