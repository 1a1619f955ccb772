import { DEFAULT_POLICY, evaluatePolicy, SourceResult } from './policy-rules';

const account: SourceResult = { name: 'verified-account', kind: 'account', ok: true, reason: 'ok' };
const country = (code: string): SourceResult => ({
  name: 'verified-country',
  kind: 'country',
  ok: true,
  reason: 'ok',
  country: code,
});
const missing = (name: string): SourceResult => ({
  name,
  kind: 'account',
  ok: false,
  reason: 'not_found',
});

describe(evaluatePolicy.name, () => {
  it('the default policy admits any source that vouches, and refuses when none does', () => {
    expect(evaluatePolicy(DEFAULT_POLICY, [account], 3600)).toMatchObject({
      allowed: true,
      decidingRule: 'sources.any',
    });
    expect(evaluatePolicy(DEFAULT_POLICY, [missing('verified-account')], 3600)).toMatchObject({
      allowed: false,
      decidingRule: 'sources.any',
    });
  });

  it('all: names the first named source that does not vouch', () => {
    const policy = {
      ...DEFAULT_POLICY,
      sources: { mode: 'all' as const, names: ['verified-account', 'verified-country'] },
    };
    expect(evaluatePolicy(policy, [account, missing('verified-country')], 3600)).toMatchObject({
      allowed: false,
      decidingRule: 'sources.all',
      source: 'verified-country',
    });
    expect(evaluatePolicy(policy, [account, country('FR')], 3600).allowed).toBe(true);
  });

  it('deny beats allow; allow needs an attested country', () => {
    const policy = { ...DEFAULT_POLICY, countries: { allow: ['FR'], deny: ['XX'] } };
    expect(evaluatePolicy(policy, [account, country('XX')], 3600)).toMatchObject({
      allowed: false,
      decidingRule: 'countries.deny',
      source: 'verified-country',
    });
    expect(evaluatePolicy(policy, [account, country('YY')], 3600)).toMatchObject({
      allowed: false,
      decidingRule: 'countries.allow',
    });
    expect(evaluatePolicy(policy, [account], 3600)).toMatchObject({
      allowed: false,
      decidingRule: 'countries.unknown',
      source: null,
    });
    expect(evaluatePolicy(policy, [account, country('FR')], 3600).allowed).toBe(true);
  });

  it('a country of a source that does not vouch (revoked) is not applied: the country is unknown, refused unless the policy allows unknown', () => {
    const revoked = { ...country('XX'), ok: false, reason: 'revoked' };
    const failClosed = { ...DEFAULT_POLICY, countries: { deny: ['XX'] } };
    expect(evaluatePolicy(failClosed, [account, revoked], 3600)).toMatchObject({
      allowed: false,
      decidingRule: 'countries.unknown',
      source: 'verified-country',
    });
    const open = { ...DEFAULT_POLICY, countries: { deny: ['XX'], unknown: 'allow' as const } };
    expect(evaluatePolicy(open, [account, revoked], 3600).allowed).toBe(true);
  });

  it('countries.unknown: refuse by default where a list is set, allow without lists; explicit values win', () => {
    const noCountry = [account, missing('verified-country')];
    const cases: Array<[object, boolean]> = [
      [{}, true],
      [{ deny: [] }, true],
      [{ deny: ['KP'] }, false],
      [{ allow: ['FR'] }, false],
      [{ allow: ['FR'], unknown: 'allow' }, true],
      [{ deny: ['KP'], unknown: 'allow' }, true],
      [{ unknown: 'refuse' }, false],
    ];
    for (const [countries, allowed] of cases) {
      const decision = evaluatePolicy({ ...DEFAULT_POLICY, countries }, noCountry, 3600);
      expect({ countries, allowed: decision.allowed }).toEqual({ countries, allowed });
      if (!allowed) expect(decision.decidingRule).toBe('countries.unknown');
    }
    // A known country is judged by the lists whatever unknown says.
    const kp = evaluatePolicy(
      { ...DEFAULT_POLICY, countries: { deny: ['KP'], unknown: 'allow' } },
      [account, country('KP')],
      3600,
    );
    expect(kp).toMatchObject({ allowed: false, decidingRule: 'countries.deny' });
  });

  it('minSessionSeconds refuses a shorter session, and is not judged without one', () => {
    const policy = { ...DEFAULT_POLICY, minSessionSeconds: 600 };
    expect(evaluatePolicy(policy, [account], 599)).toMatchObject({
      allowed: false,
      decidingRule: 'minSessionSeconds',
    });
    expect(evaluatePolicy(policy, [account], 600).allowed).toBe(true);
    expect(evaluatePolicy(policy, [account], null).allowed).toBe(true);
  });
});
