import { AbiCoder } from 'ethers';
import { codeSizesCallData, decodeCodeSizes } from './code-sizes';

describe('code sizes (deployless eth_call)', () => {
  const a = '0xcA11bde05977b3631167028862bE2a173976CA11';
  const b = '0x000000000022D473030F116dDEE9F6B43aC78BA3';

  it('assembles PUSH20 addr, EXTCODESIZE, PUSH2 32k, MSTORE per address, then RETURN(0, 32n)', () => {
    expect(codeSizesCallData([a, b])).toBe(
      `0x73${a.slice(2).toLowerCase()}3b6100005273${b.slice(2).toLowerCase()}3b61002052` +
        '61004060' +
        '00f3',
    );
    expect(codeSizesCallData([])).toBe('0x61000060' + '00f3');
  });

  it('refuses what is not an address', () => {
    expect(() => codeSizesCallData(['0x1234'])).toThrow(/not an address/);
  });

  it('decodes one word per address', () => {
    const answer = AbiCoder.defaultAbiCoder().encode(['uint256', 'uint256'], [24_576n, 0n]);
    expect(decodeCodeSizes(answer, 2)).toEqual([24_576, 0]);
  });
});
