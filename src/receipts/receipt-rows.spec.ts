import { createPrivateKey } from 'node:crypto';
import { generateEs256Key } from '../config/es256-key';
import { ndjsonPage, ReceiptRow, viewOf } from './receipt-rows';
import { compactJws } from './signing/compact-jws';

describe('receipt rows', () => {
  const key = generateEs256Key();
  const privateKey = createPrivateKey({ key: key.privateJwk as never, format: 'jwk' });
  const sign = (value: unknown) =>
    compactJws(JSON.stringify(value), { kid: key.kid, typ: 'compliance-receipt' }, privateKey);

  it("writes each row as the line JSON.stringify of GET's view would be, payload lengths of every remainder mod 3", () => {
    const rows: ReceiptRow[] = [];
    for (let i = 0; i < 12; i += 1) {
      // Payloads of varying length (base64url tails of 0, 2 and 3 characters) and non-ASCII text.
      const payload = { id: `r${i}`, note: 'é€𝄞'.repeat(i) + 'x'.repeat(i), amount: String(-i) };
      const execution = i % 2 ? JSON.stringify({ txHash: `0x${i}`, status: 'success' }) : null;
      rows.push({
        seq: i,
        id: `r${i}`,
        issuedMs: i,
        jws: sign(payload),
        execution,
        executionJws: execution === null ? null : sign({ receiptId: `r${i}` }),
      });
    }
    const lines = ndjsonPage(rows).toString('utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => JSON.parse(line))).toEqual(rows.map(viewOf));
    expect(ndjsonPage([]).length).toBe(0);
  });
});
