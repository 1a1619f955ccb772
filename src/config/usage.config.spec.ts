import { usageConfig } from './usage.config';

describe('usageConfig', () => {
  const NAMES = [
    'USAGE_RAW_RETENTION_DAYS',
    'USAGE_ROLLUP_RETENTION_DAYS',
    'RETENTION_INTERVAL_MS',
    'RETENTION_BATCH_SIZE',
  ];

  function configWith(vars: Record<string, string>) {
    const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
    for (const name of NAMES) delete process.env[name];
    Object.assign(process.env, vars);
    try {
      return usageConfig();
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  }

  it('keeps raw rows 7 days and roll-ups 400 by default, sweeping hourly in batches of 1000', () => {
    expect(configWith({})).toEqual({
      rawRetentionDays: 7,
      rollupRetentionDays: 400,
      pruneIntervalMs: 3_600_000,
      pruneBatchSize: 1_000,
    });
    expect(configWith({ USAGE_RAW_RETENTION_DAYS: '30' }).rawRetentionDays).toBe(30);
  });

  it('refuses a value that is not a whole number in range, naming the variable', () => {
    expect(() => configWith({ USAGE_RAW_RETENTION_DAYS: '0' })).toThrow(/USAGE_RAW_RETENTION_DAYS/);
    expect(() => configWith({ USAGE_ROLLUP_RETENTION_DAYS: 'a year' })).toThrow(
      /USAGE_ROLLUP_RETENTION_DAYS/,
    );
    expect(() => configWith({ RETENTION_INTERVAL_MS: '10' })).toThrow(/RETENTION_INTERVAL_MS/);
  });
});
