import { CONFIGURED_ISSUER_NAME } from '../credentials/issuers.service';

/**
 * The policy name of a ZK credential source: the name of the issuer whose key signed the
 * credential (issue 40, item 2): "default" for the configured key (`ZK_ISSUER_PUBLIC_KEY`), the
 * operator's name (`cli issuers add --name acme-kyc`) for a registered one.
 */
export const DEFAULT_ZK_SOURCE_NAME = CONFIGURED_ISSUER_NAME;

export function zkSourceName(issuer?: { name?: string | null }): string {
  return issuer?.name ?? DEFAULT_ZK_SOURCE_NAME;
}

/** Every ZK source name a policy may list: each registered issuer (revoked ones too, so a policy naming one stays valid and simply matches nothing). */
export function zkSourceNames(issuers: readonly { name: string }[]): string[] {
  return issuers.map((i) => i.name);
}

/** The demo activation (test network) as a source a policy may list. */
export const DEMO_SOURCE_NAME = 'demo';
