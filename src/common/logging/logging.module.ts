import { Module, OnApplicationShutdown } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { LoggerModule } from 'nestjs-pino';
import { pino, type Logger as PinoLoggerInstance, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import { appConfig, AppConfig } from '../../config/app.config';
import { guardStdio } from './guard-stdio';
import { LineWriter, noticeOnStderr } from './line-writer';
import { logContextFields } from './request-context';

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

/**
 * Nest's boot listings: a line per module, controller and route (90 of a start's first 130
 * lines), which pushed the banner and the demo login off a terminal's first screen. They are
 * debug detail (LOG_LEVEL=debug shows them), in both formats.
 */
const BOOT_LISTING_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);
const INFO = 30;

function isBootListing(first: unknown): boolean {
  const context = (first as { context?: unknown } | null)?.context;
  return typeof context === 'string' && BOOT_LISTING_CONTEXTS.has(context);
}

/** The root logger's options: level, redaction and the request/response shapes of a line. */
export function loggerOptions(config: Pick<AppConfig, 'logLevel'>): LoggerOptions {
  return {
    level: config.logLevel,
    mixin: logContextFields,
    hooks: {
      logMethod(args, method, level) {
        if (level === INFO && isBootListing(args[0])) {
          if (this.isLevelEnabled('debug')) (this.debug as (...a: unknown[]) => void)(...args);
          return;
        }
        method.apply(this, args);
      },
    },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
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
 * JSON lines go to stdout through a 4 KiB buffer, written when full and at least every 100 ms,
 * instead of one write per line: a line per request cost a write system call each
 * (docs/architecture.md, "Why hand-written"). Shutdown writes what is buffered and every later line at once:
 * after the shutdown hooks Nest re-raises SIGTERM, which ends the process without the exit event
 * pino would flush on. A stdout that breaks (its reader gone: EPIPE) stops logging, never the
 * service (LineWriter; issue 34).
 */
export class BufferedStdout implements OnApplicationShutdown {
  readonly lines = new LineWriter(1, {
    minLength: 4096,
    flushIntervalMs: 100,
    maxBuffered: 1024 * 1024,
    notice: noticeOnStderr,
    name: 'stdout',
  });
  private writeThrough = false;

  constructor() {
    guardStdio(this.lines);
  }

  write(line: string): void {
    this.lines.write(line);
    if (this.writeThrough) this.lines.flushSync();
  }

  /** pino's fatal() flushes its stream synchronously; safe here (bounded, never throws). */
  flushSync(): void {
    this.lines.flushSync();
  }

  onApplicationShutdown(): void {
    if (this.writeThrough) return;
    this.writeThrough = true;
    this.lines.flushSync();
  }
}

/** The one pino logger: Nest's logger (nestjs-pino) and the request log write through it. */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

@Module({
  providers: [
    BufferedStdout,
    {
      provide: ROOT_LOGGER,
      inject: [appConfig.KEY, BufferedStdout],
      // A person at a terminal reads short coloured lines; collectors get one JSON object a line.
      useFactory: (config: AppConfig, stdout: BufferedStdout): PinoLoggerInstance =>
        pino(
          loggerOptions(config),
          config.logFormat === 'pretty'
            ? pretty({
                colorize: true,
                sync: true,
                translateTime: 'SYS:HH:MM:ss',
                ignore: 'pid,hostname,context,req,res,responseTime,code',
                messageFormat:
                  '{if context}[{context}] {end}{msg}{if req} {req.method} {req.url} -> {res.statusCode}{end}{if code} {code}{end}',
              })
            : stdout,
        ),
    },
  ],
  exports: [ROOT_LOGGER],
})
class RootLoggerModule {}

/**
 * Nest's logger is nestjs-pino's, over the root logger, WITHOUT its per-request middleware
 * (pino-http's child loggers and an AsyncLocalStorage scope per request, which turns on promise
 * hooks for every promise the process makes): that middleware cost as much CPU as the rest of a
 * protected request (docs/architecture.md, "Why hand-written"). The request log is requestLogMiddleware's, one
 * line per request with the same fields; app lines get the request id (and, with tracing on, the
 * trace id) from pino's mixin over request-context.ts (one AsyncLocalStorage scope per request,
 * on Node 24's AsyncContextFrame rather than promise hooks; not measured apart from the rest of a
 * request: `npm run bench:tracing`'s "tracing off" side includes it).
 */
@Module({
  imports: [
    RootLoggerModule,
    LoggerModule.forRootAsync({
      imports: [RootLoggerModule],
      providers: [],
      inject: [ROOT_LOGGER],
      useFactory: (logger: PinoLoggerInstance) => ({ pinoHttp: { logger }, forRoutes: [] }),
    }),
  ],
  exports: [RootLoggerModule],
})
export class LoggingModule {}
