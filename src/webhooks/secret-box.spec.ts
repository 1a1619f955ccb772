import { Webhook } from 'standardwebhooks';
import { signedHeaders } from './delivery/signature';
import { newSigningSecret, SecretBox } from './secret-box';

describe('SecretBox', () => {
  it('seals and opens; another server secret cannot open it; the ciphertext differs each time', () => {
    const box = new SecretBox('a'.repeat(48));
    const secret = newSigningSecret();
    const sealed = box.seal(secret);
    expect(sealed).not.toContain(secret);
    expect(box.seal(secret)).not.toBe(sealed);
    expect(box.open(sealed)).toBe(secret);
    expect(() => new SecretBox('b'.repeat(48)).open(sealed)).toThrow();
    expect(sealed.length).toBeLessThan(300);
  });
});

describe('signedHeaders', () => {
  it('signs so that standardwebhooks verifies, with either secret during a rotation', () => {
    const [current, previous] = [newSigningSecret(), newSigningSecret()];
    expect(current).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const body = JSON.stringify({ type: 'webhook.test', id: 'msg_1', createdAt: '', data: {} });
    const headers = signedHeaders('msg_1', new Date(), body, [current, previous]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toMatchObject({ type: 'webhook.test' });
    expect(new Webhook(previous).verify(body, headers)).toMatchObject({ type: 'webhook.test' });
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow();
  });
});
