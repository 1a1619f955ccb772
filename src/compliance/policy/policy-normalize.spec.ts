import { assertKnownSources, normalizePolicy } from './policy-normalize';
import type { CompliancePolicyRules } from './policy-rules';

const rules = (countries: object, over: object = {}): CompliancePolicyRules =>
  ({
    sources: { mode: 'any', names: ['verified-account', 'verified-account'] },
    countries,
    minSessionSeconds: 60,
    ...over,
  }) as CompliancePolicyRules;

describe(normalizePolicy.name, () => {
  it('keeps the rules only: read-only members of a GET answer sent back are dropped', () => {
    const body = {
      ...rules({ deny: ['kp', 'KP'] }),
      authMethod: 'jwt',
      version: 4,
      updatedAt: '2026-01-01T00:00:00.000Z',
      knownSources: [{ name: 'demo', kind: 'demo' }],
    };
    expect(normalizePolicy(body)).toEqual({
      sources: { mode: 'any', names: ['verified-account'] },
      countries: { deny: ['KP'], unknown: 'refuse' },
      minSessionSeconds: 60,
    });
  });

  it('writes countries.unknown out only where a list makes it matter, and keeps an explicit one', () => {
    expect(normalizePolicy(rules({})).countries).toEqual({});
    expect(normalizePolicy(rules({ deny: [] })).countries).toEqual({ deny: [] });
    expect(normalizePolicy(rules({ allow: ['fr'] })).countries).toEqual({
      allow: ['FR'],
      unknown: 'refuse',
    });
    expect(normalizePolicy(rules({ deny: ['KP'], unknown: 'allow' })).countries).toEqual({
      deny: ['KP'],
      unknown: 'allow',
    });
    expect(normalizePolicy(rules({ unknown: 'refuse' })).countries).toEqual({ unknown: 'refuse' });
  });

  it('is idempotent, and fills what a row written before a member existed lacks', () => {
    const once = normalizePolicy(rules({ allow: ['de'] }));
    expect(normalizePolicy(once)).toEqual(once);
    const oldRow = { sources: { mode: 'all', names: [] }, countries: { deny: ['XX'] } };
    expect(normalizePolicy(oldRow as unknown as CompliancePolicyRules)).toEqual({
      sources: { mode: 'all', names: [] },
      countries: { deny: ['XX'], unknown: 'refuse' },
      minSessionSeconds: 0,
    });
  });
});

describe(assertKnownSources.name, () => {
  it('refuses names no known source carries, naming the field', () => {
    expect(() => assertKnownSources(rules({}), ['verified-account'])).not.toThrow();
    const refused = (() => {
      try {
        assertKnownSources(rules({}, { sources: { mode: 'any', names: ['x'] } }), ['demo']);
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toMatchObject({
      code: 'INVALID_PARAMS',
      options: {
        details: [expect.objectContaining({ field: 'sources.names', message: 'unknown: x' })],
      },
    });
  });
});
