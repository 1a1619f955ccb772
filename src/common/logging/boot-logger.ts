import type { LoggerService } from '@nestjs/common';
import { pino, type Logger } from 'pino';
import type { AppConfig } from '../../config/app.config';
import { loggerOptions } from './logging.module';

type Format = 'pretty' | 'json';

/**
 * The format of lines written before the configuration is read (or when it cannot be): LOG_FORMAT
 * when it names one, else the app's default (pretty on a terminal, JSON otherwise).
 */
export function earlyLogFormat(env: Record<string, string | undefined> = process.env): Format {
  if (env.LOG_FORMAT === 'pretty' || env.LOG_FORMAT === 'json') return env.LOG_FORMAT;
  return process.stdout.isTTY ? 'pretty' : 'json';
}

/** Nest's (message, ...params, context?) calls, as pino's (fields, message). */
class PinoBootLogger implements LoggerService {
  constructor(private readonly pino: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(
    level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace',
    message: unknown,
    params: unknown[],
  ): void {
    const context =
      params.length > 0 && typeof params.at(-1) === 'string'
        ? (params.at(-1) as string)
        : undefined;
    const rest = context === undefined ? params : params.slice(0, -1);
    const fields: Record<string, unknown> = context === undefined ? {} : { context };
    // Nest's error(message, stack, context): the stack as the error's, never a separate line.
    if (level === 'error' && typeof rest[0] === 'string') fields.stack = rest[0];
    if (message instanceof Error)
      this.pino[level](Object.assign(fields, { err: message }), message.message);
    else if (message !== null && typeof message === 'object')
      this.pino[level](Object.assign(fields, message));
    else this.pino[level](fields, String(message));
  }
}

/**
 * Nest's logger from the first line of a start in JSON format, until the app's own (nestjs-pino
 * over the buffered stdout) takes over: Nest's boot lines, TypeORM's connection retries and the
 * error that ends a failed start are JSON lines too, never Nest's coloured text. Same options
 * (level, redaction, boot listings at debug) as the app's root logger; written synchronously, as
 * a failing start exits right after. Pretty format: undefined (Nest's own console logger).
 */
export function bootLogger(
  logLevel: AppConfig['logLevel'],
  format: Format,
): { nest: LoggerService; pino: Logger } | undefined {
  if (format !== 'json') return undefined;
  const root = pino(loggerOptions({ logLevel }), pino.destination({ fd: 1, sync: true }));
  return { nest: new PinoBootLogger(root), pino: root };
}

/**
 * A JSON line shaped like the root logger's, for the few lines a start always prints whatever
 * LOG_LEVEL says (the Ready line scripts wait for, the demo login, a failed start's reason).
 */
export function jsonLine(level: number, fields: Record<string, unknown>, msg: string): string {
  return `${JSON.stringify({ level, time: Date.now(), pid: process.pid, ...fields, msg })}\n`;
}

/** The line that ends a failed start: JSON (on stderr) in JSON format, plain text otherwise. */
export function startFailureLine(message: string, format: Format): string {
  if (format === 'pretty') return `Failed to start: ${message}\n`;
  return jsonLine(60, { event: 'service.start_failed' }, `Failed to start: ${message}`);
}
