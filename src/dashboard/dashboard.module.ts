import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import express, { NextFunction, Request, Response } from 'express';
import { SCOPES } from '../auth/scopes';
import {
  DASHBOARD_ASSETS_DIR,
  DASHBOARD_CSP,
  DASHBOARD_PATH,
  SETTINGS_PATH,
  SNARKJS_FILE,
  SNARKJS_PATH,
  UI_LIBRARY_FILE,
  UI_LIBRARY_PATH,
} from './dashboard-assets';

/**
 * Serves the dashboard's static files at /dashboard. Mounted on the HTTP adapter during init,
 * before Nest adds its not-found handler; the API's guards and usage metering never see these
 * requests (the page calls the API like any client, with a Bearer token).
 */
@Module({})
export class DashboardModule implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const http = this.adapterHost.httpAdapter.getInstance<express.Express>();
    const router = express.Router();
    router.use(dashboardSecurityHeaders);
    // What the page would otherwise have to copy from the server: the scopes a key can hold.
    router.get(SETTINGS_PATH, (_req: Request, res: Response) => res.json({ scopes: SCOPES }));
    router.get(UI_LIBRARY_PATH, (_req: Request, res: Response) =>
      res.sendFile(UI_LIBRARY_FILE, { maxAge: '1h' }),
    );
    router.get(SNARKJS_PATH, (_req: Request, res: Response) =>
      res.sendFile(SNARKJS_FILE, { maxAge: '1h' }),
    );
    router.use(express.static(DASHBOARD_ASSETS_DIR, { index: 'index.html', maxAge: 0 }));
    http.use(DASHBOARD_PATH, router);
  }
}

/** Replaces the API's helmet CSP with the page's: only 'self', and no upgrade to HTTPS on plain HTTP hosts. */
function dashboardSecurityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', DASHBOARD_CSP);
  res.setHeader('Cache-Control', 'no-cache');
  next();
}
