import {
  collectConfigErrors,
  envBool,
  envEnum,
  envInt,
  envString,
  envUrl,
  invalidConfig,
  InvalidConfigError,
  redactConfigValue,
} from './env-reader';

describe('env-reader', () => {
  it('uses the fallback for unset or blank variables', () => {
    expect(envInt({}, 'PORT', 3000)).toBe(3000);
    expect(envInt({ PORT: '  ' }, 'PORT', 3000)).toBe(3000);
    expect(envString({}, 'HOST', 'x')).toBe('x');
  });

  it('parses and bounds integers, naming the variable on failure', () => {
    expect(envInt({ PORT: '8080' }, 'PORT', 1, { min: 0, max: 65535 })).toBe(8080);
    expect(() => envInt({ PORT: '8080x' }, 'PORT', 1)).toThrow(/PORT must be an integer/);
    expect(() => envInt({ PORT: '70000' }, 'PORT', 1, { min: 0, max: 65535 })).toThrow(
      InvalidConfigError,
    );
  });

  it('requires a value when there is no fallback', () => {
    expect(() => envString({}, 'JWT_SECRET')).toThrow(
      'Invalid configuration: JWT_SECRET is required (it is not set)',
    );
  });

  it('never echoes a secret value back', () => {
    const error = (() => {
      try {
        envEnum({ API_KEY_MODE: 'hunter2' }, 'API_KEY_MODE', ['a'], 'a');
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toContain('<redacted>');
    expect(error?.message).not.toContain('hunter2');
  });

  it('parses booleans, enums and URLs strictly', () => {
    expect(envBool({ X: 'TRUE' }, 'X', false)).toBe(true);
    expect(envBool({ X: '0' }, 'X', true)).toBe(false);
    expect(() => envBool({ X: 'maybe' }, 'X', true)).toThrow(/X must be true or false/);
    expect(envEnum({ M: 'production' }, 'M', ['demo', 'production'], 'demo')).toBe('production');
    expect(envUrl({ U: 'postgres://h/db' }, 'U', ['postgres'])).toBe('postgres://h/db');
    expect(() => envUrl({ U: 'not a url' }, 'U', ['postgres'])).toThrow(/U must be a URL/);
    expect(() => envUrl({ U: 'http://h' }, 'U', ['postgres'])).toThrow(
      /U must use one of the protocols postgres/,
    );
  });

  it('shows a URL without its credentials or path (an RPC path often holds an API key)', () => {
    expect(redactConfigValue('DATABASE_URL', 'mysql://app:hunter2@db.internal:5432/cgk')).toBe(
      'mysql://<redacted>@db.internal:5432/…',
    );
    expect(redactConfigValue('CHAIN_RPC_URL', 'wss://base.example.com/v2/abcdef')).toBe(
      'wss://base.example.com/…',
    );
    expect(redactConfigValue('REDIS_URL', 'not a url')).toBe('not a url');
    expect(() =>
      envUrl({ DATABASE_URL: 'mysql://app:hunter2@db/x' }, 'DATABASE_URL', ['postgres']),
    ).toThrow(
      'DATABASE_URL must use one of the protocols postgres (got "mysql://<redacted>@db/…")',
    );
  });
});

describe(collectConfigErrors.name, () => {
  it('records every problem instead of throwing, the readers going on with a placeholder', () => {
    const env = { PORT: 'x', DEBUG: 'maybe', MODE: 'staging', U: 'nope' };
    const read: unknown[] = [];
    const problems = collectConfigErrors(() =>
      read.push(
        envInt(env, 'PORT', 3000),
        envBool(env, 'DEBUG', false),
        envEnum(env, 'MODE', ['demo'], 'demo'),
        envUrl(env, 'U', ['https']),
        envString(env, 'NAME'),
        invalidConfig('OTHER', 'must be other', 'v', 42),
      ),
    );
    expect(read).toEqual([3000, false, 'demo', undefined, '', 42]);
    expect(problems.map((problem) => problem.problem)).toEqual([
      'PORT must be an integer between -9007199254740991 and 9007199254740991 (got "x")',
      'DEBUG must be true or false (got "maybe")',
      'MODE must be one of demo (got "staging")',
      'U must be a URL (https) (got "nope")',
      'NAME is required (it is not set)',
      'OTHER must be other (got "v")',
    ]);
  });

  it('keeps what a parser throws itself, and throws again once collecting is over', () => {
    const problems = collectConfigErrors(() => {
      envInt({ A: 'x' }, 'A', 1);
      throw new InvalidConfigError('B', 'must be b', undefined);
    });
    expect(problems.map((problem) => problem.variable)).toEqual(['A', 'B']);
    expect(() => envInt({ A: 'x' }, 'A', 1)).toThrow(InvalidConfigError);
    expect(() => collectConfigErrors(() => JSON.parse('{'))).toThrow(SyntaxError);
  });
});
