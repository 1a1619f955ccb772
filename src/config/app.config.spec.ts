import { appConfig } from './app.config';

describe('appConfig LOG_FORMAT', () => {
  const tty = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
  afterEach(() => {
    if (tty) Object.defineProperty(process.stdout, 'isTTY', tty);
    else delete (process.stdout as { isTTY?: boolean }).isTTY;
  });

  function formatWith(isTTY: boolean, LOG_FORMAT?: string): string {
    Object.defineProperty(process.stdout, 'isTTY', { value: isTTY, configurable: true });
    const saved = process.env.LOG_FORMAT;
    if (LOG_FORMAT === undefined) delete process.env.LOG_FORMAT;
    else process.env.LOG_FORMAT = LOG_FORMAT;
    try {
      return appConfig().logFormat;
    } finally {
      if (saved === undefined) delete process.env.LOG_FORMAT;
      else process.env.LOG_FORMAT = saved;
    }
  }

  it('is pretty on a terminal and json otherwise; LOG_FORMAT decides when set', () => {
    expect(formatWith(true)).toBe('pretty');
    expect(formatWith(false)).toBe('json');
    expect(formatWith(true, 'json')).toBe('json');
    expect(formatWith(false, 'pretty')).toBe('pretty');
    expect(() => formatWith(true, 'xml')).toThrow(/LOG_FORMAT must be one of pretty, json/);
  });
});
