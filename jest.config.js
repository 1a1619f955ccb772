// Jest projects: unit tests beside the code, and the e2e suites booting the whole app, run once on
// SQLite and again on PostgreSQL when TEST_DATABASE_URL is set (each app gets a fresh schema).
const base = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)s$': '@swc/jest' },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // NestJS 12 and jose 6 ship ES modules only; Node loads them through require(esm), but Jest's
  // module runtime does not, so Jest compiles them to CommonJS like our own sources.
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|jose)/)'],
};

// Projects with specs that run dist/ (process, going-live, replicas) build it once per run, before
// the workers start, under the build lock; those specs' `ensureDistBuilt()` is then a no-op, so no
// worker rewrites dist/ while another worker's process boots from it.
const buildsDist = { globalSetup: '<rootDir>/test/setup/build-dist.ts' };

const e2e = (engine, ignore = []) => ({
  ...base,
  displayName: `e2e:${engine}`,
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', ...ignore],
  setupFiles: [`<rootDir>/test/setup/${engine}.ts`],
  ...buildsDist,
});

const reliability = {
  ...base,
  displayName: 'reliability',
  testMatch: ['<rootDir>/test/reliability/**/*.reliability-spec.ts'],
  setupFiles: ['<rootDir>/test/setup/postgres.ts'],
  ...buildsDist,
};

module.exports = {
  testTimeout: 60_000,
  // Each e2e file boots whole apps; the module registry of every file (Nest, TypeORM, ethers, the
  // SDKs) is only partly reclaimed, so one long-lived process grew ~100 MB a file and ran out of
  // heap near 4 GB in CI's 150th file. A worker above 1 GB after a file is replaced by a fresh one
  // (this also keeps Jest from running in band, where the limit would not apply).
  workerIdleMemoryLimit: '1GB',
  // Three workers on CI's two cores: much of an e2e file waits on the devnet, the database or a
  // child process, and each worker has its own devnet, ports and schema. With two, a clean clone's
  // suite kept the cores 74 % busy (`time npx jest`: 2440 s of CPU over 1641 s on two cores); with
  // three, and the ceremony's committed phase 1 (circuits/README.md), `bash .ci/run`'s suite took
  // 1088 s. dist/ is built once per run by the globalSetup above, so no two workers build it at once.
  maxWorkers: 3,
  // `npm run test:reliability` runs the fault, load and fuzzing suites on PostgreSQL + Redis.
  projects:
    process.env.JEST_SUITE === 'reliability'
      ? [reliability]
      : [
          {
            ...base,
            displayName: 'unit',
            testMatch: [
              '<rootDir>/src/**/*.spec.ts',
              '<rootDir>/contracts/test/**/*.spec.ts',
              '<rootDir>/scripts/**/*.spec.ts',
              // The bench's pure parts (the CI guard's verdicts).
              '<rootDir>/bench/**/*.spec.ts',
            ],
          },
          e2e('sqlite'),
          // Whole-process tests (npm start, signals): engine-independent, run once.
          {
            ...base,
            displayName: 'process',
            testMatch: ['<rootDir>/test/process/**/*.process-spec.ts'],
            ...buildsDist,
          },
          // The dashboard's browser suite and the client package's install-and-run test run on SQLite
          // only: neither depends on the engine, and a second Chromium walk or tarball install would
          // only add time.
          ...(process.env.TEST_DATABASE_URL
            ? [
                e2e('postgres', [
                  '<rootDir>/test/dashboard/',
                  // Each module's dashboard page, walked in Chromium: engine-independent.
                  '-page\\.e2e-spec\\.ts$',
                  '<rootDir>/test/client/client-package',
                  // The trusted-setup ceremony: CPU heavy and engine-independent (its POST /verify
                  // runs on both engines in verify.e2e-spec.ts).
                  '<rootDir>/test/compliance/zk-ceremony',
                ]),
              ]
            : []),
        ],
};
