/**
 * The per-account compliance policy and its evaluation: pure functions, no Nest. Rules run in a
 * fixed order and the first that refuses decides: sources, then countries (deny, then a wallet
 * whose country no source establishes, then allow), then the shortest session worth opening.
 */
import type { TradingRules } from './trading-rules';

/** What the country rules do with a wallet whose country no source establishes. */
export const UNKNOWN_COUNTRY = ['refuse', 'allow'] as const;
export type UnknownCountry = (typeof UNKNOWN_COUNTRY)[number];

export interface PolicyCountries {
  allow?: string[];
  deny?: string[];
  /** Absent: `refuse` where an allow or deny list is set, else `allow` (effectiveUnknown). */
  unknown?: UnknownCountry;
}

export interface CompliancePolicyRules {
  /** any: one of the named sources suffices; all: every named source is needed. No names: any accepted source. */
  sources: { mode: 'any' | 'all'; names: string[] };
  /** ISO 3166-1 alpha-2 codes, applied where a source carries a country (Verified Country). */
  countries: PolicyCountries;
  /** Refuse to open a session shorter than this (e.g. an attestation about to expire). 0 = off. */
  minSessionSeconds: number;
  /** Trade rules (issue 54): absent, the account's wallets trade with their session alone. */
  trading?: TradingRules;
}

/** Whether the policy lists countries (allow or deny). */
export function listsCountries(countries: PolicyCountries): boolean {
  return (countries.allow?.length ?? 0) > 0 || (countries.deny?.length ?? 0) > 0;
}

/**
 * `countries.unknown` as applied: the policy's own, else fail closed where a list is set (a deny
 * list must not be lifted by hiding the country, issue 52), else allow.
 */
export function effectiveUnknown(countries: PolicyCountries): UnknownCountry {
  return countries.unknown ?? (listsCountries(countries) ? 'refuse' : 'allow');
}

export const DEFAULT_POLICY: CompliancePolicyRules = {
  sources: { mode: 'any', names: [] },
  countries: {},
  minSessionSeconds: 0,
};

export type SourceKind = 'account' | 'country' | 'zk' | 'demo';

/** One source's result for a wallet: an attestation found on chain, or the proof or demo presented. */
export interface SourceResult {
  name: string;
  kind: SourceKind;
  ok: boolean;
  reason: string;
  /** Country sources that are ok: the attested code. */
  country?: string | null;
  /** unix s the source stops vouching (0 = never). */
  expiresAt?: number;
}

export const POLICY_RULES = [
  'sources.any',
  'sources.all',
  'countries.deny',
  'countries.unknown',
  'countries.allow',
  'minSessionSeconds',
] as const;
export type PolicyRule = (typeof POLICY_RULES)[number];

export interface PolicyDecision {
  allowed: boolean;
  decidingRule: PolicyRule;
  /** The source the decision is about (refusals), when one is. */
  source: string | null;
  message: string;
  sources: SourceResult[];
}

/**
 * `sessionSeconds`: the length of the session that would open (null when unknown, e.g. a dry run
 * without an activation: the rule is then judged on the sources' own expiry).
 */
export function evaluatePolicy(
  policy: CompliancePolicyRules,
  sources: SourceResult[],
  sessionSeconds: number | null,
): PolicyDecision {
  const decide = (
    allowed: boolean,
    decidingRule: PolicyRule,
    message: string,
    source: string | null = null,
  ): PolicyDecision => ({ allowed, decidingRule, source, message, sources });
  const okNames = new Set(sources.filter((s) => s.ok).map((s) => s.name));
  const { mode, names } = policy.sources;
  const sourceRule: PolicyRule = mode === 'all' ? 'sources.all' : 'sources.any';
  if (names.length === 0) {
    if (okNames.size === 0)
      return decide(false, sourceRule, 'no accepted source vouches for the wallet');
  } else if (mode === 'all') {
    const missing = names.find((n) => !okNames.has(n));
    if (missing)
      return decide(
        false,
        'sources.all',
        `the policy needs every source of [${names.join(', ')}]; ${missing} does not vouch for the wallet`,
        missing,
      );
  } else if (!names.some((n) => okNames.has(n))) {
    return decide(
      false,
      'sources.any',
      `the policy needs one source of [${names.join(', ')}]; none vouches for the wallet`,
      names[0],
    );
  }
  const countries = sources.filter((s) => s.ok && s.country);
  const deny = policy.countries.deny ?? [];
  const denied = countries.find((s) => deny.includes(s.country!));
  if (denied)
    return decide(
      false,
      'countries.deny',
      `country ${denied.country} (source ${denied.name}) is denied by the policy`,
      denied.name,
    );
  if (countries.length === 0 && effectiveUnknown(policy.countries) === 'refuse')
    return decide(
      false,
      'countries.unknown',
      "no source establishes the wallet's country (none attests one, or its attestation is not valid), and the policy refuses an unknown country",
      countryRuleSource(sources),
    );
  const allow = policy.countries.allow;
  if (allow && allow.length > 0 && countries.length > 0) {
    const allowed = countries.find((s) => allow.includes(s.country!));
    if (!allowed) {
      const other = countries[0];
      return decide(
        false,
        'countries.allow',
        `country ${other.country} (source ${other.name}) is not in the policy's allowed countries`,
        other.name,
      );
    }
  }
  if (
    policy.minSessionSeconds > 0 &&
    sessionSeconds !== null &&
    sessionSeconds < policy.minSessionSeconds
  )
    return decide(
      false,
      'minSessionSeconds',
      `the session would last ${sessionSeconds} s, shorter than the policy's ${policy.minSessionSeconds} s`,
    );
  return decide(true, sourceRule, 'allowed');
}

/** The country source a refusal for an unknown country is about: the first one checked, if any. */
function countryRuleSource(sources: SourceResult[]): string | null {
  return sources.find((s) => s.kind === 'country')?.name ?? null;
}
