/** One JSON call to a service under bench: the parsed body, or an Error naming the refusal. */
export async function jsonApi(
  port: number,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped JSON of our own API
  const json = (await res.json()) as Record<string, any>;
  if (res.status >= 400)
    throw new Error(`${method} ${path} -> ${res.status} ${JSON.stringify(json)}`);
  return json;
}
