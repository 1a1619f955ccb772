import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type express from 'express';
import { ApiError } from '../../common/errors/api-error';
import { renderApiError } from '../../common/errors/error-envelope';
import { ComplianceConfig } from '../../config/compliance.config';
import { InvalidConfigError } from '../../config/env-reader';
import { ZK_ARTIFACTS } from '../zk';
import {
  describeProvingArtifacts,
  ZK_FILES_PATH,
  type ProvingArtifacts,
} from '../zk/proving-artifacts';

const ARTIFACTS_HINT =
  'GET /verify/artifacts names the current wasm and zkey URLs with their SHA-256.';

/**
 * The circuit's proving files for wallet holders who prove without this repository
 * (`proveCredential` of the client package, the dashboard): hashed once at start, listed by
 * GET /verify/artifacts, served at /zk/<sha256>/<file> (content-addressed: cached forever, and a
 * new key is a new URL). Mounted on the HTTP adapter like the dashboard's files: public, unmetered.
 */
@Injectable()
export class ProvingArtifactsService implements OnModuleInit {
  private described?: ReturnType<typeof describeProvingArtifacts>;

  constructor(
    private readonly config: ComplianceConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    try {
      this.described = describeProvingArtifacts({
        wasm: ZK_ARTIFACTS.wasm,
        zkey: this.config.provingKeyPath,
        verificationKey: this.config.verificationKeyPath,
      });
    } catch (error) {
      throw new InvalidConfigError(
        'ZK_PROVING_KEY_PATH',
        `must name a readable zkey: ${(error as Error).message}`,
        this.config.provingKeyPath,
      );
    }
    const http = this.adapterHost.httpAdapter?.getInstance<express.Express>();
    if (!http) return; // an application context (CLI): nothing to serve
    const files = this.described.files;
    const route = `${ZK_FILES_PATH}/:sha256/:file`;
    http.get(route, (req: express.Request, res: express.Response, next: express.NextFunction) => {
      const path = files.get(`/${String(req.params.sha256)}/${String(req.params.file)}`);
      if (!path) {
        const { status, body } = renderApiError(
          new ApiError('NOT_FOUND', 'No such proving file', {
            hint: ARTIFACTS_HINT,
          }),
        );
        res.status(status).json(body);
        return;
      }
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.sendFile(path, { maxAge: '365d', immutable: true }, (err?: Error) => {
        if (err) refuseFileRequest(res, err, next);
      });
    });
  }

  get artifacts(): ProvingArtifacts {
    if (!this.described) throw new Error('proving artifacts are read at module init');
    return this.described.artifacts;
  }
}

const FILE_HEADERS = [
  'Cache-Control',
  'Content-Type',
  'Content-Length',
  'Content-Range',
  'ETag',
  'Last-Modified',
];

/**
 * What `send` refuses about a request for a served file: an unsatisfiable Range is 416
 * RANGE_NOT_SATISFIABLE with the Content-Range `send` sets ("bytes *" and the size after a
 * slash, RFC 9110 §15.5.17), a failed
 * If-Match or If-Unmodified-Since a bodiless 412 (the client's own condition), a file gone from
 * disk 404: never a 500, since these routes are public and a client must not be able to move the
 * 5xx ratio that pages the operator. Anything else (an I/O error) goes the usual way (logged 500).
 */
function refuseFileRequest(res: express.Response, err: Error, next: express.NextFunction): void {
  if (res.headersSent) {
    // The client went away, or the socket failed mid-file: nothing more can be said on it.
    res.destroy();
    return;
  }
  const status = (err as { status?: number }).status;
  if (status === 412) {
    res.status(412).end();
    return;
  }
  if (status !== 416 && status !== 404) {
    next(err);
    return;
  }
  const error =
    status === 416
      ? new ApiError('RANGE_NOT_SATISFIABLE', 'The requested range starts past the end of the file')
      : new ApiError('NOT_FOUND', 'No such proving file', { hint: ARTIFACTS_HINT });
  // What `send` set for the file describes no error: an immutable cache of a 416 least of all.
  for (const name of FILE_HEADERS) res.removeHeader(name);
  const headers = (err as { headers?: Record<string, string> }).headers ?? {};
  const rendered = renderApiError(error);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.status(rendered.status).json(rendered.body);
}
