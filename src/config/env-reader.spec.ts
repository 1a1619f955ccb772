import { envBool, envEnum, envInt, envString, envUrl, InvalidConfigError } from './env-reader';

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
});
