import { INestApplication, Logger } from '@nestjs/common';
import express, { NextFunction, Request, Response } from 'express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { ApiError } from '../common/errors/api-error';
import { sendError } from '../common/errors/error-envelope.filter';
import {
  checkJsonShape,
  hasLoneSurrogate,
  JsonShapeViolation,
} from '../common/validation/json-shape';

export const BODY_LIMIT_BYTES = 16 * 1024;
const TOO_LARGE_MESSAGE = 'Request body is larger than 16 KiB';

const JSON_HINT =
  'Send one JSON document (check quotes, commas and brackets) with Content-Type: application/json.';

/**
 * Bodies are JSON only (spec §4). A body of another type is refused as such (415), instead of
 * being left unparsed and reported as a list of missing fields. Body-parser failures never reach
 * Nest's filters: they are rendered here, as validation errors.
 */
export function useJsonBodies(app: INestApplication): void {
  const logger = new Logger('BodyParser');
  (app.getHttpServer() as Server).on('checkContinue', answerExpectContinue);
  const parseJson = express.json({
    limit: BODY_LIMIT_BYTES,
    strict: true,
    verify: refuseHostileShapes,
    reviver: refuseLoneSurrogates,
  });
  // One middleware for the size, the type and the parse (one router layer instead of three: the
  // request floor, bench/build-cost.md).
  app.use((req: Request, res: Response, next: NextFunction) => {
    const length = req.headers['content-length'];
    // Without Content-Length or Transfer-Encoding a request has no body (RFC 9112 §6.3): nothing
    // to refuse, parse or watch (no 'data' listener that would put the stream in flowing mode).
    if (length === undefined && req.headers['transfer-encoding'] === undefined) return next();
    if (declaresTooLargeBody(req)) return refuseTooLargeBody(res, logger);
    // req.is() is false for a body of another type; an empty body is none.
    if (length !== '0' && req.is('application/json') === false)
      return refuseMediaType(req, res, logger);
    if (length === undefined)
      refuseWhenStreamPassesLimit(req, () => refuseTooLargeBody(res, logger));
    // Once refused, body-parser's own late error (after the socket closed) has nobody to answer.
    parseJson(req, res, (err?: unknown) => {
      if (!res.headersSent) next(err);
    });
  });
  app.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (!err) return next();
    sendError(res, bodyParserError(err), logger);
  });
}

function refuseMediaType(req: Request, res: Response, logger: Logger): void {
  const sent = req.headers['content-type'];
  sendError(
    res,
    new ApiError(
      'UNSUPPORTED_MEDIA_TYPE',
      sent
        ? `Request bodies must be JSON; got Content-Type ${sent.slice(0, 100)}`
        : 'Request bodies must be JSON; the request has a body but no Content-Type',
    ),
    logger,
  );
}

/**
 * express.json refuses a body past the limit but answers only once it has read the whole body
 * (body-parser's read.js `dump`): a client declaring 10 GB kept the socket until it had sent them
 * all or the request timeout fired. A declared length over the limit is refused before any of the
 * body is read, and a streamed (chunked) one as soon as it passes the limit; the connection then
 * closes after the answer, so the rest is never read (issue 30).
 */
function declaresTooLargeBody(req: IncomingMessage): boolean {
  // Node's parser has already answered 400 to a Content-Length that is not a decimal number.
  const declared = req.headers['content-length'];
  return declared !== undefined && Number(declared) > BODY_LIMIT_BYTES;
}

function refuseWhenStreamPassesLimit(req: Request, refuse: () => void): void {
  let received = 0;
  const count = (chunk: Buffer) => {
    received += chunk.length;
    if (received <= BODY_LIMIT_BYTES) return;
    req.off('data', count);
    refuse();
  };
  // body-parser adds its own 'data' listener in the same tick, so both see every chunk.
  req.on('data', count);
}

function refuseTooLargeBody(res: Response, logger: Logger): void {
  if (res.headersSent) return;
  // Node ends the socket once a response marked `Connection: close` is written.
  res.setHeader('Connection', 'close');
  sendError(res, new ApiError('PAYLOAD_TOO_LARGE', TOO_LARGE_MESSAGE), logger);
}

/**
 * `Expect: 100-continue` asks whether to send the body at all: Node says yes to everything unless
 * the server listens for 'checkContinue'. A declared length over the limit gets no 100, only the
 * 413 of the pipeline, and the client never sends the body.
 */
function answerExpectContinue(this: Server, req: IncomingMessage, res: ServerResponse): void {
  if (!declaresTooLargeBody(req)) res.writeContinue();
  this.emit('request', req, res);
}

class JsonShapeError extends Error {
  readonly status = 400;
  constructor(readonly violation: JsonShapeViolation) {
    super('JSON body shape refused');
  }
}

/** Runs on the raw body before JSON.parse, so nothing recursive ever sees a hostile shape. */
function refuseHostileShapes(_req: unknown, _res: unknown, raw: Buffer): void {
  const violation = checkJsonShape(raw);
  if (violation) throw new JsonShapeError(violation);
}

class LoneSurrogateError extends Error {
  readonly status = 400;
  constructor() {
    super('JSON body has a lone surrogate');
  }
}

/**
 * A string holding half of a UTF-16 surrogate pair is valid JSON but not text: validators that
 * encode it (validator's isEmail calls encodeURI) throw. Refused while parsing, on every route.
 */
function refuseLoneSurrogates(key: string, value: unknown): unknown {
  if (hasLoneSurrogate(key) || (typeof value === 'string' && hasLoneSurrogate(value)))
    throw new LoneSurrogateError();
  return value;
}

function shapeError(violation: JsonShapeViolation): ApiError {
  const message =
    violation.rule === 'maxDepth'
      ? `Request body nests objects or arrays deeper than ${violation.limit} levels`
      : `Request body has more than ${violation.limit} object members`;
  return new ApiError('INVALID_PARAMS', message, {
    hint: 'Send only the documented fields; see /docs for the schema.',
    details: [{ field: 'body', constraint: violation.rule, limit: violation.limit, message }],
  });
}

function bodyParserError(err: unknown): unknown {
  if (err instanceof JsonShapeError) return shapeError(err.violation);
  if (err instanceof LoneSurrogateError) {
    const message = 'Request body has a string that is not valid Unicode (a lone UTF-16 surrogate)';
    return new ApiError('INVALID_PARAMS', message, {
      hint: 'Send text as valid UTF-8 JSON; escape characters outside the BMP as surrogate pairs.',
      details: [{ field: 'body', constraint: 'unicode', message }],
    });
  }
  const e = err as { type?: unknown; status?: unknown };
  if (typeof e.type !== 'string') return err;
  if (e.status === 413) return new ApiError('PAYLOAD_TOO_LARGE', TOO_LARGE_MESSAGE);
  if (e.type === 'entity.parse.failed')
    return new ApiError('INVALID_PARAMS', 'Request body is not valid JSON', { hint: JSON_HINT });
  return new ApiError('INVALID_PARAMS', 'Request body could not be read (send UTF-8 JSON)', {
    hint: JSON_HINT,
  });
}
