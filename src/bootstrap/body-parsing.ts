import { INestApplication, Logger } from '@nestjs/common';
import express, { NextFunction, Request, Response } from 'express';
import { ApiError } from '../common/errors/api-error';
import { sendError } from '../common/errors/error-envelope.filter';
import {
  checkJsonShape,
  hasLoneSurrogate,
  JsonShapeViolation,
} from '../common/validation/json-shape';

export const BODY_LIMIT_BYTES = 16 * 1024;

const JSON_HINT =
  'Send one JSON document (check quotes, commas and brackets) with Content-Type: application/json.';

/**
 * Bodies are JSON only (spec §4). A body of another type is refused as such (415), instead of
 * being left unparsed and reported as a list of missing fields. Body-parser failures never reach
 * Nest's filters: they are rendered here, as validation errors.
 */
export function useJsonBodies(app: INestApplication): void {
  const logger = new Logger('BodyParser');
  app.use((req: Request, res: Response, next: NextFunction) => {
    // req.is() is null without a body, false for a body of another type; an empty body is none.
    if (req.headers['content-length'] === '0' || req.is('application/json') !== false)
      return next();
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
  });
  app.use(
    express.json({
      limit: BODY_LIMIT_BYTES,
      strict: true,
      verify: refuseHostileShapes,
      reviver: refuseLoneSurrogates,
    }),
  );
  app.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (!err) return next();
    sendError(res, bodyParserError(err), logger);
  });
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
  if (e.status === 413)
    return new ApiError('PAYLOAD_TOO_LARGE', 'Request body is larger than 16 KiB');
  if (e.type === 'entity.parse.failed')
    return new ApiError('INVALID_PARAMS', 'Request body is not valid JSON', { hint: JSON_HINT });
  return new ApiError('INVALID_PARAMS', 'Request body could not be read (send UTF-8 JSON)', {
    hint: JSON_HINT,
  });
}
