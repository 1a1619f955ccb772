import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuiltAppProcess, ensureDistBuilt, startBuiltApp } from '../helpers/built-app-process';

/** Issue 13 item 5: a start a person can read (pretty + banner), JSON lines for collectors. */
describe('What a start prints', () => {
  const dirs: string[] = [];
  let running: BuiltAppProcess | undefined;

  beforeAll(() => {
    ensureDistBuilt();
  });
  afterEach(() => running?.kill());
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  function dataDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'cgk-banner-'));
    dirs.push(dir);
    return dir;
  }

  it('pretty: a banner with the API, /docs, the devnet RPC and chainId, funded wallets and the demo login', async () => {
    const dir = dataDir();
    running = await startBuiltApp({ DATA_DIR: dir, LOG_FORMAT: 'pretty', LOG_LEVEL: 'info' });
    await fetch(`http://127.0.0.1:${running.port}/health/live`);
    await fetch(`http://127.0.0.1:${running.port}/api/v1/usage/stats`);
    await running.stop();
    const out = running.output();
    const base = `http://127.0.0.1:${running.port}`;
    expect(out).toContain(`${base}/api/v1`);
    expect(out).toContain(`${base}/docs`);
    expect(out).toContain(`${base}/dashboard`);
    expect(out).toMatch(/Runtime +Node\.js v24\.\d+\.\d+/);
    expect(out).toMatch(/Devnet +http:\/\/127\.0\.0\.1:\d+ +chainId 84532/);
    expect(out).toContain('cacheTimeout: -1');
    // Development mnemonic accounts #0 (attester) and #1.
    expect(out).toContain('#0 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(out).toContain('#1 0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    expect(out).toContain(
      `Demo login demo@example.com, password in ${join(dir, 'demo-credentials.json')}`,
    );
    expect(out).toMatch(/password: \S+/); // first start: the password itself
    // Pretty log lines, not JSON objects.
    expect(out).toMatch(/INFO.*\[Chain\] .*embedded devnet ready/);
    expect(out).toMatch(/INFO.*request completed GET \/health\/live -> 200/);
    // An error's line carries its envelope code.
    expect(out).toMatch(
      /WARN.*request completed GET \/api\/v1\/usage\/stats -> 401 API_KEY_MISSING/,
    );
    expect(out.split('\n').filter((line) => line.startsWith('{'))).toEqual([]);
    // Nest's module and route listings are debug detail: the banner and the login come first.
    expect(out).not.toMatch(/RoutesResolver|RouterExplorer|InstanceLoader|Mapped \{/);
    const lines = out.split('\n');
    expect(lines.findIndex((line) => /password: \S+/.test(line))).toBeLessThan(40);
  });

  it('json: one JSON object per log line, and the Ready line scripts wait for', async () => {
    running = await startBuiltApp({ DATA_DIR: dataDir(), LOG_FORMAT: 'json', LOG_LEVEL: 'info' });
    await fetch(`http://127.0.0.1:${running.port}/health/live`);
    await fetch(`http://127.0.0.1:${running.port}/api/v1/usage/stats`);
    await running.stop();
    const lines = running.output().split('\n');
    const json = lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
    expect(json.length).toBeGreaterThan(0);
    expect(json.some((entry) => /embedded devnet ready/.test(entry.msg))).toBe(true);
    expect(json.every((entry) => typeof entry.level === 'number')).toBe(true);
    const refused = json.find((entry) => entry.req?.url === '/api/v1/usage/stats');
    expect(refused).toMatchObject({ res: { statusCode: 401 }, code: 'API_KEY_MISSING' });
    const live = json.find((entry) => entry.req?.url === '/health/live');
    expect(live).not.toHaveProperty('code');
    // Every line is JSON, the Ready line too (issue 43): a collector parses the whole start.
    expect(lines.filter((line) => line !== '' && !line.startsWith('{'))).toEqual([]);
    expect(json).toContainEqual(
      expect.objectContaining({
        level: 30,
        event: 'service.ready',
        msg: expect.stringMatching(/^Ready on http:\/\/127\.0\.0\.1:\d+ in \d+ ms/),
      }),
    );
    expect(running.output()).not.toMatch(/^ +Wallets +\d+ funded/m);
  });
});
