/**
 * Secrets the server makes for itself (ADR 048): 256 random bits, made on first use and kept in the
 * database, so they survive restarts and travel with the database's backups. Nobody configures
 * them; a restored backup keeps signing with the same key.
 */
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { serverSecrets } from "#db/schema.ts";

export type SecretName = "oidc-flow-cookie" | "reporter-id";

const cache = new WeakMap<Db, Map<SecretName, string>>();

export function serverSecret(db: Db, name: SecretName): string {
  let known = cache.get(db);
  if (!known) cache.set(db, (known = new Map()));
  const hit = known.get(name);
  if (hit) return hit;
  // Insert-or-keep, then read: two processes starting together agree on the first one written.
  db.insert(serverSecrets).values({ name, value: randomBytes(32).toString("base64url"), createdAt: new Date() }).onConflictDoNothing().run();
  const value = db.select({ value: serverSecrets.value }).from(serverSecrets).where(eq(serverSecrets.name, name)).get()!.value;
  known.set(name, value);
  return value;
}
