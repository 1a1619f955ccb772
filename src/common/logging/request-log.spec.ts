import { pino } from 'pino';
import { loggerOptions } from './logging.module';
import { requestLogger } from './request-log';

/** The lines a logger writes, with the clock and pid that differ between two loggers taken out. */
function linesOf(write: (logger: pino.Logger) => void, make: (root: pino.Logger) => pino.Logger) {
  const lines: string[] = [];
  const root = pino(loggerOptions({ logLevel: 'info' }), {
    write: (line: string) => lines.push(line),
  });
  write(make(root));
  return lines.map((line) => {
    const { time: _time, pid: _pid, ...rest } = JSON.parse(line) as Record<string, unknown>;
    return rest;
  });
}

describe('requestLogger', () => {
  const key = `cgk_live_${'b'.repeat(48)}`;
  const req = {
    id: 'req-1',
    method: 'POST',
    url: `/api/v1/defi/swap?apiKey=${key}`,
    headers: {
      'x-api-key': key,
      authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln',
    },
  };
  const res = { statusCode: 403, headers: { 'set-cookie': 'refresh=secret' } };
  const fields = [
    { req, res, responseTime: 4 },
    { req, res, responseTime: 4, code: 'INSTITUTION_OWNERSHIP_MISMATCH' },
  ];

  it('writes the request line the root logger (with its redaction) writes', () => {
    const log = (logger: pino.Logger) => {
      for (const f of fields) logger.warn(f, 'request completed');
    };
    const byRoot = linesOf(log, (root) => root);
    const byRequestLogger = linesOf(log, requestLogger);
    expect(byRequestLogger).toEqual(byRoot);
    expect(byRequestLogger[1]).toMatchObject({
      req: { id: 'req-1', method: 'POST', url: '/api/v1/defi/swap?apiKey=[redacted]' },
      res: { statusCode: 403 },
      responseTime: 4,
      code: 'INSTITUTION_OWNERSHIP_MISMATCH',
    });
  });

  it('never writes a credential of the request, with or without redaction', () => {
    const text = JSON.stringify(
      linesOf(
        (logger) => logger.info({ req, res, responseTime: 1 }, 'request completed'),
        requestLogger,
      ),
    );
    expect(text).not.toContain(key);
    expect(text).not.toContain('eyJ');
    expect(text).not.toContain('secret');
  });
});
