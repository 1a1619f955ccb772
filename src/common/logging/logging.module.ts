import { Module } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { LoggerModule } from 'nestjs-pino';
import type { Options } from 'pino-http';
import { destination } from 'pino';
import pretty from 'pino-pretty';
import { appConfig, AppConfig } from '../../config/app.config';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** Reuses a caller's X-Request-Id when it is sane, otherwise makes one; echoed on the response. */
export function requestIdFor(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id =
    typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** Credentials never reach a log line, whatever logs the request. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'password',
  'refreshToken',
  'accessToken',
  'apiKey',
  'key',
];

/** API keys (`<prefix>_{test|live}_<hex>`) and JWTs pasted into a URL by mistake are masked too. */
const SECRET_IN_TEXT =
  /\b[a-z][a-z0-9]{1,15}_(?:test|live)_[0-9a-fA-F]{4,}|\beyJ[\w-]*\.[\w-]+\.[\w-]*/g;

export function scrubSecrets(text: string): string {
  return text.replace(SECRET_IN_TEXT, '[redacted]');
}

function pinoHttpOptions(config: AppConfig): Options {
  return {
    level: config.logLevel,
    genReqId: requestIdFor,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    customLogLevel: (_req, res, err) =>
      err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: scrubSecrets(req.url),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  };
}

/**
 * JSON lines go to stdout through a 4 KiB buffer, written when full and at least every 100 ms
 * (and synchronously on exit, which pino arranges), instead of one write per line: a line per
 * request cost a write system call each (bench/README.md, issue 17).
 */
function bufferedStdout() {
  return destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 100 });
}

@Module({
  imports: [
    LoggerModule.forRootAsync({
      imports: [],
      providers: [],
      inject: [appConfig.KEY],
      // A person at a terminal reads short coloured lines; collectors get one JSON object a line.
      useFactory: (config: AppConfig) => ({
        pinoHttp:
          config.logFormat === 'pretty'
            ? [
                pinoHttpOptions(config),
                pretty({
                  colorize: true,
                  sync: true,
                  translateTime: 'SYS:HH:MM:ss',
                  ignore: 'pid,hostname,context,req,res,responseTime',
                  messageFormat:
                    '{if context}[{context}] {end}{msg}{if req} {req.method} {req.url} -> {res.statusCode}{end}',
                }),
              ]
            : [pinoHttpOptions(config), bufferedStdout()],
      }),
    }),
  ],
})
export class LoggingModule {}
