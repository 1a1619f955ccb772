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
    http.get(`${ZK_FILES_PATH}/:sha256/:file`, (req: express.Request, res: express.Response) => {
      const path = files.get(`/${String(req.params.sha256)}/${String(req.params.file)}`);
      if (!path) {
        const { status, body } = renderApiError(
          new ApiError('NOT_FOUND', 'No such proving file', {
            hint: 'GET /verify/artifacts names the current wasm and zkey URLs with their SHA-256.',
          }),
        );
        res.status(status).json(body);
        return;
      }
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.sendFile(path, { maxAge: '365d', immutable: true });
    });
  }

  get artifacts(): ProvingArtifacts {
    if (!this.described) throw new Error('proving artifacts are read at module init');
    return this.described.artifacts;
  }
}
