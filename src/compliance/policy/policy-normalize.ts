/**
 * THE one place a policy becomes the rules that are stored and applied: a PUT body, evaluate's
 * draft, and a row read back (rows written before a member existed get its default). Members
 * are picked by name, so the read-only members of GET's answer (authMethod, version, updatedAt,
 * knownSources) sent back in a PUT are dropped here; a member added to the policy adds its line.
 * Idempotent: normalizing normalized rules changes nothing. Pure.
 */
import { ApiError } from '../../common/errors/api-error';
import { CompliancePolicyRules, listsCountries, PolicyCountries } from './policy-rules';
import { normalizeTrading } from './trading-rules';

const distinctUpper = (list: string[]) => [...new Set(list.map((c) => c.toUpperCase()))];

export function normalizeCountries(countries: PolicyCountries): PolicyCountries {
  const out: PolicyCountries = {};
  if (countries.allow !== undefined) out.allow = distinctUpper(countries.allow);
  if (countries.deny !== undefined) out.deny = distinctUpper(countries.deny);
  // Written out where a list makes it matter, so GET shows what applies and a PUT of that answer
  // keeps it; left out otherwise, so adding a list later starts from the fail-closed default.
  const unknown = countries.unknown ?? (listsCountries(out) ? 'refuse' : undefined);
  if (unknown !== undefined) out.unknown = unknown;
  return out;
}

export function normalizePolicy(rules: CompliancePolicyRules): CompliancePolicyRules {
  return {
    sources: { mode: rules.sources.mode, names: [...new Set(rules.sources.names)] },
    countries: normalizeCountries(rules.countries ?? {}),
    minSessionSeconds: rules.minSessionSeconds ?? 0,
    ...(rules.trading !== undefined && { trading: normalizeTrading(rules.trading) }),
  };
}

/** 400 INVALID_PARAMS (field sources.names) naming the names no known source carries. */
export function assertKnownSources(rules: CompliancePolicyRules, known: readonly string[]): void {
  const unknown = rules.sources.names.filter((n) => !known.includes(n));
  if (unknown.length === 0) return;
  throw new ApiError('INVALID_PARAMS', `Unknown source ${unknown.join(', ')} in sources.names`, {
    hint: `Known sources: ${known.join(', ')}.`,
    details: [
      {
        field: 'sources.names',
        reason: 'INVALID_PARAMS',
        message: `unknown: ${unknown.join(', ')}`,
      },
    ],
  });
}
