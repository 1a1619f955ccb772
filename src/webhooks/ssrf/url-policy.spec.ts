import { checkWebhookUrl, coalescing, type ResolvedAddress, type Resolver } from './url-policy';

const PRODUCTION = { production: true, allowedHosts: [] };
const DEMO = { production: false, allowedHosts: [] };
const resolvesTo =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const);

describe('checkWebhookUrl', () => {
  it('production refuses http, private literals and names resolving to private addresses', async () => {
    expect(await checkWebhookUrl('http://127.0.0.1:8080/hooks', PRODUCTION)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('https only'),
    });
    expect(await checkWebhookUrl('https://10.0.0.1/hooks', PRODUCTION)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('private'),
    });
    expect(await checkWebhookUrl('https://[::1]/hooks', PRODUCTION)).toMatchObject({ ok: false });
    expect(await checkWebhookUrl('https://169.254.169.254/latest', PRODUCTION)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('metadata'),
    });
    // The system resolver: localhost is 127.0.0.1 (and ::1).
    expect(await checkWebhookUrl('https://localhost/hooks', PRODUCTION)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('loopback'),
    });
  });

  it('production refuses a name when ANY of its addresses is private', async () => {
    const verdict = await checkWebhookUrl(
      'https://hooks.example.com/x',
      PRODUCTION,
      resolvesTo('93.184.216.34', '192.168.0.7'),
    );
    expect(verdict).toMatchObject({ ok: false, reason: expect.stringContaining('192.168.0.7') });
  });

  it('production accepts https to public addresses and answers the addresses to connect to', async () => {
    const verdict = await checkWebhookUrl(
      'https://hooks.example.com/x',
      PRODUCTION,
      resolvesTo('93.184.216.34', '2606:2800:220:1::1'),
    );
    expect(verdict).toEqual({
      ok: true,
      addresses: [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1::1', family: 6 },
      ],
    });
  });

  it('WEBHOOK_ALLOWED_HOSTS exempts a name from the address and https rules', async () => {
    const policy = { production: true, allowedHosts: ['hooks.internal'] };
    expect(
      await checkWebhookUrl('http://hooks.internal/x', policy, resolvesTo('10.1.2.3')),
    ).toMatchObject({ ok: true });
    expect(
      await checkWebhookUrl('https://other.internal/x', policy, resolvesTo('10.1.2.3')),
    ).toMatchObject({ ok: false });
  });

  it('refuses other schemes, credentials, and unresolvable names in production', async () => {
    expect(await checkWebhookUrl('ftp://example.com/x', DEMO)).toMatchObject({ ok: false });
    expect(await checkWebhookUrl('https://u:p@example.com/x', DEMO)).toMatchObject({ ok: false });
    expect(await checkWebhookUrl('not a url', DEMO)).toMatchObject({ ok: false });
    const failing: Resolver = async () => {
      throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
    };
    expect(await checkWebhookUrl('https://nowhere.example/x', PRODUCTION, failing)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('ENOTFOUND'),
    });
  });

  it('demo mode allows http to loopback (127.0.0.0/8, ::1, localhost) only', async () => {
    expect(await checkWebhookUrl('http://127.0.0.1:4000/hooks', DEMO)).toMatchObject({ ok: true });
    expect(await checkWebhookUrl('http://127.9.8.7:4000/hooks', DEMO)).toMatchObject({ ok: true });
    expect(await checkWebhookUrl('http://[::1]:4000/hooks', DEMO)).toMatchObject({ ok: true });
    expect(await checkWebhookUrl('http://localhost:4000/hooks', DEMO)).toMatchObject({ ok: true });
    expect(await checkWebhookUrl('http://169.254.169.254/', DEMO)).toMatchObject({ ok: false });
  });

  it('demo mode refuses every other non-public range, as production does', async () => {
    for (const [url, range] of [
      ['http://10.0.0.1/x', 'private'],
      ['http://172.16.5.4/x', 'private'],
      ['http://192.168.1.1/x', 'private'],
      ['http://100.64.0.1/x', 'cgnat'],
      ['http://169.254.10.10/x', 'link-local'],
      ['http://0.0.0.0/x', 'unspecified'],
      ['http://[fd00::1]/x', 'unique-local'],
      ['http://[fe80::1]/x', 'link-local'],
      ['http://[::ffff:10.0.0.1]/x', 'private'],
    ])
      expect(await checkWebhookUrl(url, DEMO)).toMatchObject({
        ok: false,
        reason: expect.stringContaining(range),
      });
    expect(
      await checkWebhookUrl('http://intranet.example/x', DEMO, resolvesTo('127.0.0.1', '10.2.3.4')),
    ).toMatchObject({ ok: false, reason: expect.stringContaining('10.2.3.4') });
  });

  it('WEBHOOK_ALLOWED_HOSTS exempts a name in demo mode too, but never the metadata address', async () => {
    const demo = { production: false, allowedHosts: ['hooks.internal'] };
    expect(
      await checkWebhookUrl('http://hooks.internal/x', demo, resolvesTo('10.1.2.3')),
    ).toMatchObject({ ok: true });
    expect(
      await checkWebhookUrl('http://other.internal/x', demo, resolvesTo('10.1.2.3')),
    ).toMatchObject({ ok: false });
    const production = { production: true, allowedHosts: ['hooks.internal'] };
    expect(
      await checkWebhookUrl('https://hooks.internal/x', production, resolvesTo('169.254.169.254')),
    ).toMatchObject({ ok: false, reason: expect.stringContaining('metadata') });
  });

  it('bounds DNS resolution by dnsTimeoutMs', async () => {
    const blackHole: Resolver = () => new Promise<ResolvedAddress[]>(() => undefined);
    const started = Date.now();
    const verdict = await checkWebhookUrl(
      'https://slow.example/x',
      { ...PRODUCTION, dnsTimeoutMs: 100 },
      blackHole,
    );
    expect(verdict).toMatchObject({ ok: false, reason: expect.stringContaining('ETIMEOUT') });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('coalescing', () => {
  it('keeps one lookup per name in flight, shared by callers, and looks again once it settles', async () => {
    const calls: string[] = [];
    const answers: Array<(value: ResolvedAddress[]) => void> = [];
    const resolve = coalescing((hostname) => {
      calls.push(hostname);
      return new Promise<ResolvedAddress[]>((done) => answers.push(done));
    });
    const first = resolve('a.example');
    const second = resolve('a.example');
    void resolve('b.example');
    expect(calls).toEqual(['a.example', 'b.example']);
    answers[0]([{ address: '93.184.216.34', family: 4 }]);
    expect(await first).toEqual(await second);
    void resolve('a.example');
    expect(calls).toEqual(['a.example', 'b.example', 'a.example']);
  });
});
