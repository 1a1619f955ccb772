import { SerializedJson } from './serialized-json';

describe('SerializedJson', () => {
  const config = {
    chain: { chainId: 84532, name: 'Base Sepolia' },
    tokens: [{ symbol: 'WETH', decimals: 18, native: undefined }],
    gas: { calibrated: { swap: '180000' } },
    text: 'quotes " and \\ and \u2028',
  };

  it('is the object as JSON.stringify writes it, with a first field as a spread would put it', () => {
    const json = SerializedJson.of(config);
    expect(json.text).toBe(JSON.stringify(config));
    for (const method of ['api_key', 'jwt'])
      expect(json.withFirstField('authMethod', method).text).toBe(
        JSON.stringify({ authMethod: method, ...config }),
      );
    expect(SerializedJson.of({}).withFirstField('authMethod', 'jwt').text).toBe(
      JSON.stringify({ authMethod: 'jwt' }),
    );
  });

  it('makes each variant once', () => {
    const json = SerializedJson.of(config);
    expect(json.withFirstField('authMethod', 'jwt')).toBe(json.withFirstField('authMethod', 'jwt'));
    expect(json.withFirstField('authMethod', 'jwt')).not.toBe(
      json.withFirstField('authMethod', 'api_key'),
    );
  });

  it('holds objects only', () => {
    expect(() => SerializedJson.of([1, 2] as unknown as Record<string, unknown>)).toThrow(
      'SerializedJson holds a JSON object',
    );
  });
});
