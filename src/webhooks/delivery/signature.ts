import { Webhook } from 'standardwebhooks';

/**
 * The Standard Webhooks headers of one attempt. Each secret signs (`v1,<base64 HMAC-SHA256>` of
 * `id.timestamp.body`); during a rotation the old and new signatures are space-separated, and a
 * receiver holding either secret verifies.
 */
export function signedHeaders(
  messageId: string,
  at: Date,
  body: string,
  secrets: readonly string[],
): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets
      .map((secret) => new Webhook(secret).sign(messageId, at, body))
      .join(' '),
  };
}
