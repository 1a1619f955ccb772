import { appConfig } from './app.config';

/** Reads appConfig with one variable set (or unset), then puts the variable back. */
function configWith(name: string, value: string | undefined) {
  const saved = process.env[name];
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
  try {
    return appConfig();
  } finally {
    if (saved === undefined) delete process.env[name];
    else process.env[name] = saved;
  }
}

describe('appConfig LOG_FORMAT', () => {
  const tty = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
  afterEach(() => {
    if (tty) Object.defineProperty(process.stdout, 'isTTY', tty);
    else delete (process.stdout as { isTTY?: boolean }).isTTY;
  });

  function formatWith(isTTY: boolean, LOG_FORMAT?: string): string {
    Object.defineProperty(process.stdout, 'isTTY', { value: isTTY, configurable: true });
    return configWith('LOG_FORMAT', LOG_FORMAT).logFormat;
  }

  it('is pretty on a terminal and json otherwise; LOG_FORMAT decides when set', () => {
    expect(formatWith(true)).toBe('pretty');
    expect(formatWith(false)).toBe('json');
    expect(formatWith(true, 'json')).toBe('json');
    expect(formatWith(false, 'pretty')).toBe('pretty');
    expect(() => formatWith(true, 'xml')).toThrow(/LOG_FORMAT must be one of pretty, json/);
  });
});

describe('appConfig HEAP_GROWING_PERCENT', () => {
  const percentWith = (value?: string) =>
    configWith('HEAP_GROWING_PERCENT', value).heapGrowingPercent;

  it('is 40 by default, 0 (V8 decides) when asked, and refuses what is not a percentage', () => {
    expect(percentWith()).toBe(40);
    expect(percentWith('0')).toBe(0);
    expect(percentWith('100')).toBe(100);
    expect(() => percentWith('-5')).toThrow(/HEAP_GROWING_PERCENT must be an integer between 0/);
    expect(() => percentWith('1.5x')).toThrow(/HEAP_GROWING_PERCENT/);
  });
});
