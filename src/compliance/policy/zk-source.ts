/**
 * The policy name of the ZK credential source. One issuer today, named "default"; the issuer
 * registry (issue 40, item 2) names each issuer, and this is the one function to re-point.
 */
export const DEFAULT_ZK_SOURCE_NAME = 'default';

export function zkSourceName(_issuer?: { name?: string | null }): string {
  return _issuer?.name ?? DEFAULT_ZK_SOURCE_NAME;
}

/** Every ZK source name a policy may list. */
export function zkSourceNames(): string[] {
  return [DEFAULT_ZK_SOURCE_NAME];
}

/** The demo activation (test network) as a source a policy may list. */
export const DEMO_SOURCE_NAME = 'demo';
