import { generate } from '@otplib/totp';
import { base32, nodeCrypto } from './otp-plugins';
import {
  newRecoveryCodes,
  newTotpSecret,
  normalizeRecoveryCode,
  totpUri,
  verifiedTotpStep,
} from './totp';

describe('totp', () => {
  const secret = newTotpSecret();
  const at = Date.UTC(2026, 10, 26, 12, 0, 10);
  const step = Math.floor(at / 30_000);

  it('computes RFC 6238 appendix B (SHA-1, T=59) with the node plugins', async () => {
    const rfcSecret = base32.encode(Buffer.from('12345678901234567890'));
    expect(rfcSecret).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(Buffer.from(base32.decode(rfcSecret)).toString()).toBe('12345678901234567890');
    // 94287082 with 8 digits; authenticator apps show the last 6.
    expect(await generate({ secret: rfcSecret, crypto: nodeCrypto, base32, epoch: 59 })).toBe(
      '287082',
    );
  });

  it('accepts the current code and names its time step', async () => {
    const code = await generate({ secret, crypto: nodeCrypto, base32, epoch: at / 1000 });
    expect(await verifiedTotpStep(secret, code, null, at)).toBe(step);
  });

  it('accepts the previous step (clock drift) but not two steps away', async () => {
    const previous = await generate({ secret, crypto: nodeCrypto, base32, epoch: at / 1000 - 30 });
    expect(await verifiedTotpStep(secret, previous, null, at)).toBe(step - 1);
    const old = await generate({ secret, crypto: nodeCrypto, base32, epoch: at / 1000 - 90 });
    expect(await verifiedTotpStep(secret, old, null, at)).toBeUndefined();
  });

  it('refuses a code of a step already used, or of an earlier one', async () => {
    const code = await generate({ secret, crypto: nodeCrypto, base32, epoch: at / 1000 });
    expect(await verifiedTotpStep(secret, code, step, at)).toBeUndefined();
    const previous = await generate({ secret, crypto: nodeCrypto, base32, epoch: at / 1000 - 30 });
    expect(await verifiedTotpStep(secret, previous, step - 1, at)).toBeUndefined();
  });

  it('refuses anything that is not six digits', async () => {
    expect(await verifiedTotpStep(secret, '12345', null, at)).toBeUndefined();
    expect(await verifiedTotpStep(secret, 'abcdef', null, at)).toBeUndefined();
  });

  it('builds an otpauth URI with issuer, label and secret', () => {
    const uri = totpUri('Acme Builder', 'ops@acme.test', secret);
    expect(uri).toMatch(/^otpauth:\/\/totp\//);
    expect(uri).toContain(`secret=${secret}`);
    expect(decodeURIComponent(uri)).toContain('Acme Builder');
  });

  it('makes ten distinct recovery codes that normalize as typed', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(normalizeRecoveryCode(` ${codes[0].toUpperCase()} `)).toBe(codes[0].replace('-', ''));
  });
});
