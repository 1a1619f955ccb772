/** Permission scopes (design §4). A JWT (dashboard) user has all of them; a key has those it was created with. */
export const SCOPES = [
  'defi:swap',
  'defi:liquidity',
  'defi:preflight',
  'defi:broadcast',
  'usage:read',
  'onboarding:write',
  'compliance:verify',
  'audit:read',
  'receipts:read',
  'approvals:read',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
