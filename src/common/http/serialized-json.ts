/**
 * A JSON object answer serialized once, for a body that stays the same for the life of the process
 * (GET /api/v1/defi/config). A handler returns it in place of the object; the HTTP adapter writes
 * the text as `res.json` would write the object (same Content-Type, same bytes), so the request
 * no longer pays for JSON.stringify of a 4 KB document, nor for building it. bench/build-cost.md,
 * "The protected request's floor", measures what that saved.
 */
export class SerializedJson {
  /** The same text with one field first, per (name, value): an answer's `authMethod`. */
  private readonly withFirst = new Map<string, SerializedJson>();

  private constructor(readonly text: string) {}

  /** `value` must be a plain JSON object (what `res.json` would serialize the same way). */
  static of(value: Record<string, unknown>): SerializedJson {
    const text = JSON.stringify(value);
    if (!text.startsWith('{')) throw new Error('SerializedJson holds a JSON object');
    return new SerializedJson(text);
  }

  /**
   * `{ [name]: value, ...this }` as text, made once per field and value: what
   * `JSON.stringify({ [name]: value, ...object })` gives when the object has no field `name`.
   */
  withFirstField(name: string, value: string): SerializedJson {
    const key = `${name}\u0000${value}`;
    let answer = this.withFirst.get(key);
    if (!answer) {
      const rest = this.text === '{}' ? '}' : `,${this.text.slice(1)}`;
      answer = new SerializedJson(`{${JSON.stringify(name)}:${JSON.stringify(value)}${rest}`);
      this.withFirst.set(key, answer);
    }
    return answer;
  }
}
