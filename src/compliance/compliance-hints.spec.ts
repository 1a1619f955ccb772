import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { AuthController } from '../auth/login/auth.controller';
import { AttestationsController } from './attestations/attestations.controller';
import { ERROR_CATALOGUE, ErrorCode } from '../common/errors/error-catalogue';
import { HealthController } from '../health/health.controller';
import { OnboardingController } from './onboarding/onboarding.controller';
import { VerificationController } from './verification/verification.controller';
import { ownershipMismatch } from './wallets/wallets.service';

type Controller = new (...args: never[]) => object;

/** "POST /onboarding/register", "POST /api/v1/onboarding/register", ... for every handler. */
function routesOf(controllers: Controller[]): Set<string> {
  const routes = new Set<string>();
  for (const controller of controllers) {
    const bases = [Reflect.getMetadata(PATH_METADATA, controller)].flat() as string[];
    for (const name of Object.getOwnPropertyNames(controller.prototype)) {
      const handler = controller.prototype[name as keyof object] as unknown;
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method === undefined) continue;
      const sub = Reflect.getMetadata(PATH_METADATA, handler) as string;
      for (const base of bases) {
        const path = `/${[base, sub].filter((p) => p && p !== '/').join('/')}`.replace(/\/+/g, '/');
        routes.add(`${RequestMethod[method]} ${path}`);
      }
    }
  }
  return routes;
}

const ROUTES = routesOf([
  OnboardingController,
  AttestationsController,
  VerificationController,
  AuthController,
  HealthController,
]);
const mentioned = (hint: string) =>
  [...hint.matchAll(/\b(GET|POST) (\/[\w/:-]+\w)/g)].map((m) => `${m[1]} ${m[2]}`);

describe('Hints of spec §7 rule 1 and of the compliance codes', () => {
  it('serves the onboarding and verify paths of spec §4, unversioned and under /api/v1', () => {
    for (const route of [
      'POST /onboarding/register',
      'POST /onboarding/activate-session-demo',
      'POST /verify',
      'GET /onboarding/nonce',
    ]) {
      expect(ROUTES).toContain(route);
      expect(ROUTES).toContain(route.replace(' /', ' /api/v1/'));
    }
  });

  it.each<[ErrorCode, string[]]>([
    ['INSTITUTION_OWNERSHIP_MISMATCH', ['POST /onboarding/register']],
    ['SESSION_NOT_ACTIVE', ['POST /onboarding/activate-session-demo', 'POST /verify']],
    ['JWT_INVALID', ['POST /auth/login', 'POST /auth/refresh']],
  ])('%s points to %j, and those routes exist', (code, expected) => {
    const hint = ERROR_CATALOGUE[code].hint;
    expect(mentioned(hint)).toEqual(expect.arrayContaining(expected));
    // The DeFi routes (/defi/...) live in a module above this one; the e2e hint specs follow them.
    for (const route of mentioned(hint).filter((r) => !/ \/defi\//.test(r)))
      expect(ROUTES).toContain(route);
  });

  it('says "demo mode" for the rebinding hint and "test network" / "production" for the session hint', () => {
    expect(ERROR_CATALOGUE.INSTITUTION_OWNERSHIP_MISMATCH.hint).toMatch(
      /POST \/onboarding\/register \(demo mode\)/,
    );
    expect(ERROR_CATALOGUE.SESSION_NOT_ACTIVE.hint).toMatch(
      /activate-session-demo on the test network/,
    );
    expect(ERROR_CATALOGUE.SESSION_NOT_ACTIVE.hint).toMatch(
      /POST \/verify with a proof in production/,
    );
  });

  it.each<ErrorCode>([
    'DEMO_DISABLED',
    'PROOF_INVALID',
    'PROOF_REPLAYED',
    'SIWE_INVALID',
    'BROADCAST_FAILED',
    'CHAIN_UNAVAILABLE',
  ])('every route named by the %s hint exists', (code) => {
    for (const route of mentioned(ERROR_CATALOGUE[code].hint)) expect(ROUTES).toContain(route);
  });

  it('points DEMO_DISABLED to POST /verify and SIWE_INVALID to GET /onboarding/nonce', () => {
    expect(mentioned(ERROR_CATALOGUE.DEMO_DISABLED.hint)).toContain('POST /verify');
    expect(mentioned(ERROR_CATALOGUE.SIWE_INVALID.hint)).toContain('GET /onboarding/nonce');
  });

  it('keeps the catalogue hint on the ownership error the compliance module throws', () => {
    const error = ownershipMismatch('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    expect(error.code).toBe('INSTITUTION_OWNERSHIP_MISMATCH');
    expect(error.hint).toBe(ERROR_CATALOGUE.INSTITUTION_OWNERSHIP_MISMATCH.hint);
  });
});
