/**
 * Webhook signatures: `t={unix seconds},v1={hex HMAC-SHA256 of "{t}.{raw body}"}`, the scheme hosted
 * billing providers use. A signature older than the tolerance is refused, so a captured request
 * cannot be replayed later; replays inside the window are caught by the event id (ADR 080).
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const SIGNATURE_TOLERANCE_MS = 5 * 60 * 1000;

function hmac(secret: string, timestamp: string, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

export function signPayload(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000).toString();
  return `t=${t},v1=${hmac(secret, t, body)}`;
}

export type SignatureCheck = "ok" | "missing" | "malformed" | "expired" | "mismatch";

export function verifySignature(secret: string, body: string, header: string | undefined, now: Date): SignatureCheck {
  if (!header) return "missing";
  if (header.length > 1000) return "malformed";
  let t: string | undefined;
  const candidates: string[] = [];
  for (const part of header.split(",")) {
    const [k, v] = part.trim().split("=", 2);
    if (k === "t" && v) t = v;
    else if (k === "v1" && v && /^[0-9a-f]{64}$/.test(v)) candidates.push(v);
  }
  if (!t || !/^\d{1,12}$/.test(t) || candidates.length === 0) return "malformed";
  if (Math.abs(now.getTime() - Number(t) * 1000) > SIGNATURE_TOLERANCE_MS) return "expired";
  const expected = Buffer.from(hmac(secret, t, body), "hex");
  return candidates.some((c) => timingSafeEqual(Buffer.from(c, "hex"), expected)) ? "ok" : "mismatch";
}
