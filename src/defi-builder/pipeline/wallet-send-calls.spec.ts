import { walletSendCallsOf } from './wallet-send-calls';

const TO = '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707';
const FROM = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

describe('walletSendCallsOf', () => {
  it('answers EIP-5792 2.0.0: hex chain id and values, the calls in order', () => {
    expect(
      walletSendCallsOf(84532, FROM, [
        { to: TO, data: '0x095ea7b3', value: '0' },
        { to: TO, data: '0x3593564c', value: '1000000000000000' },
      ]),
    ).toEqual({
      version: '2.0.0',
      chainId: '0x14a34',
      from: FROM,
      atomicRequired: true,
      calls: [
        { to: TO, data: '0x095ea7b3', value: '0x0' },
        { to: TO, data: '0x3593564c', value: '0x38d7ea4c68000' },
      ],
    });
  });

  it('requires no atomicity of a single call', () => {
    expect(walletSendCallsOf(8453, FROM, [{ to: TO, data: '0x', value: '0' }])).toMatchObject({
      chainId: '0x2105',
      atomicRequired: false,
    });
  });
});
