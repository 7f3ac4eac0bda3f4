// Signatures of outbound webhook deliveries. Two schemes over the same raw body, so receivers can use either:
// - `X-Svc-Signature` (wire reference §4.11): lowercase hex HMAC-SHA256 of the exact body bytes, key = the
//   subscription secret as UTF-8; no prefix, no timestamp.
// - Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`), made by the
//   `standardwebhooks` library. Its key is the same secret's UTF-8 bytes, which in the library's own notation
//   is `whsec_` + base64(secret): receivers construct `new Webhook("whsec_" + base64(secret))`.
import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";

export const SIGNATURE_HEADER = "x-svc-signature";

/** The subscription secret as the Standard Webhooks library's key string. */
export function standardWebhooksKey(secret: string): string {
  return `whsec_${Buffer.from(secret, "utf8").toString("base64")}`;
}

/** Headers that sign `body` (sent byte for byte as given) for the event `eventId` at `at`. */
export function signDelivery(secret: string, eventId: string, at: Date, body: string): Record<string, string> {
  const standard = new Webhook(standardWebhooksKey(secret));
  return {
    [SIGNATURE_HEADER]: createHmac("sha256", Buffer.from(secret, "utf8")).update(body, "utf8").digest("hex"),
    "webhook-id": eventId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": standard.sign(eventId, at, body),
  };
}
