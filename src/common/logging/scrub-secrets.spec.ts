import { scrubSecrets } from './logging.module';

describe('scrubSecrets', () => {
  it('masks API keys and JWTs in URLs, and leaves ordinary paths alone', () => {
    expect(scrubSecrets(`/x?key=cgk_test_${'a'.repeat(48)}&y=1`)).toBe('/x?key=[redacted]&y=1');
    expect(scrubSecrets('/x/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln')).toBe('/x/[redacted]');
    expect(scrubSecrets('/api/v1/defi/preflight/0x4200000000000000000000000000000000000006')).toBe(
      '/api/v1/defi/preflight/0x4200000000000000000000000000000000000006',
    );
  });
});
