import { isDashboardRead } from './dashboard-reads';

describe('isDashboardRead', () => {
  it.each([
    ['GET', '/api/v1/usage/stats', 'jwt'],
    ['GET', '/api/v1/api-keys', 'jwt'],
    ['GET', '/api/v1/wallets', 'jwt'],
    ['GET', '/api/v1/account/members', 'jwt'],
    ['GET', '/api/v1/audit-events', 'jwt'],
    ['GET', '/api/v1/auth/me', 'jwt'],
    ['GET', '/api/v1/webhooks/3fa85f64-5717-4562-b3fc-2c963f66afa6/deliveries', 'jwt'],
  ])('%s %s with a %s login is free', (method, path, auth) => {
    expect(isDashboardRead(method, path, auth)).toBe(true);
  });

  it.each([
    ['GET', '/api/v1/usage/stats', 'api_key'],
    ['POST', '/api/v1/api-keys', 'jwt'],
    ['PATCH', '/api/v1/webhooks/x', 'jwt'],
    ['GET', '/api/v1/defi/transactions/0x1', 'jwt'],
    ['GET', '/api/v1/usagex', 'jwt'],
    ['GET', '/api/v1/wallets-export', 'jwt'],
    ['GET', '/onboarding/nonce', 'jwt'],
  ])('%s %s with a %s login counts', (method, path, auth) => {
    expect(isDashboardRead(method, path, auth)).toBe(false);
  });
});
