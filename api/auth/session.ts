/**
 * Sessions the way Lucia teaches them (lucia-auth.com): small functions over one table.
 * The token is "{id}.{secret}": the id (100 random bits) finds the row, the secret (160 random bits)
 * proves possession; only SHA-256(secret) is stored and it is compared in constant time, so neither
 * a database leak nor a timing side channel yields a usable token.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, ne } from "drizzle-orm";
import type { Context } from "hono";
import { ADMIN_SESSION_MS } from "#core/admin.ts";
import { SIGNED_IN_HINT_COOKIE, SIGNED_IN_HINT_VALUE } from "#core/signed-in-hint.ts";
import type { Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { sessions, users } from "#db/schema.ts";
import { clearCookie, readCookie, writeCookie } from "./cookies.ts";

export const SESSION_COOKIE = "plinth_session";
/** The static pages' navigation hint (ADR 051) follows the session cookie wherever it changes. */
export { SIGNED_IN_HINT_COOKIE };
const DAY_MS = 86_400_000;
export const SESSION_TTL_MS = 30 * DAY_MS;
/** A session with less than this left is extended to a full 30 days on use. */
export const SESSION_RENEW_BELOW_MS = 15 * DAY_MS;
/** "Last active" in the session list is kept to the hour, so most requests write nothing. */
const LAST_SEEN_RESOLUTION_MS = 3_600_000;

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

function randomBase32(bytes: number): string {
  let out = "";
  for (const b of randomBytes(bytes)) out += BASE32[b & 31];
  return out;
}

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/** Constant-time comparison of two hex digests (or any two strings of equal length). */
export function constantTimeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  if (ab.length !== bb.length) return false;
  return timingSafeEqual(ab, bb);
}

export interface Session {
  id: string;
  userId: string;
  expiresAt: Date;
  persistent: boolean;
  /** When the sign-in that made it happened (a password change or a sign-in makes a new one). */
  createdAt: Date;
  /** This sign-in passed the second factor (ADR 105): a code at sign-in, or the code that turned two-factor on. */
  secondFactor: boolean;
}

export interface SessionUser {
  id: string;
  email: string;
  emailVerified: boolean;
  role: "owner" | "admin";
}

/** A new token: 32 base32 characters of secret (160 bits) behind a random id. */
export function generateSessionToken(): { token: string; id: string; secret: string } {
  const id = newId();
  const secret = randomBase32(32);
  return { token: `${id}.${secret}`, id, secret };
}

export function createSession(
  db: Db,
  userId: string,
  opts: { persistent: boolean; userAgent?: string | null; now: Date; secondFactor?: boolean },
): { token: string; session: Session } {
  const { token, id, secret } = generateSessionToken();
  const session: Session = {
    id,
    userId,
    expiresAt: new Date(opts.now.getTime() + SESSION_TTL_MS),
    persistent: opts.persistent,
    createdAt: opts.now,
    secondFactor: opts.secondFactor ?? false,
  };
  db.insert(sessions)
    .values({
      id,
      secretHash: sha256Hex(secret),
      userId,
      expiresAt: session.expiresAt,
      persistent: opts.persistent,
      userAgent: opts.userAgent?.slice(0, 300) ?? null,
      createdAt: opts.now,
      lastSeenAt: opts.now,
      secondFactor: session.secondFactor,
    })
    .run();
  db.update(users).set({ lastSignInAt: opts.now }).where(eq(users.id, userId)).run();
  return { token, session };
}

export type ValidationResult = { session: Session; user: SessionUser; renewed: boolean } | null;

export function validateSessionToken(db: Db, token: string, now: Date): ValidationResult {
  const dot = token.indexOf(".");
  if (dot <= 0 || token.length > 128) return null;
  const id = token.slice(0, dot);
  const secret = token.slice(dot + 1);
  const row = db
    .select({ session: sessions, user: { id: users.id, email: users.email, emailVerified: users.emailVerified, role: users.role }, suspendedAt: users.suspendedAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, id))
    .get();
  if (!row) return null;
  if (!constantTimeEqual(sha256Hex(secret), row.session.secretHash)) return null;
  // A suspended account's sessions end when it is suspended; one made since ends when it is used (ADR 109).
  if (row.suspendedAt) {
    db.delete(sessions).where(eq(sessions.id, id)).run();
    return null;
  }
  // An admin's sign-in lasts ADMIN_SESSION_MS from when it was made, and is never renewed (ADR 105).
  const admin = row.user.role === "admin";
  const end = admin ? Math.min(row.session.expiresAt.getTime(), row.session.createdAt.getTime() + ADMIN_SESSION_MS) : row.session.expiresAt.getTime();
  if (now.getTime() >= end) {
    db.delete(sessions).where(eq(sessions.id, id)).run();
    return null;
  }
  let expiresAt = new Date(end);
  let renewed = false;
  if (!admin && expiresAt.getTime() - now.getTime() < SESSION_RENEW_BELOW_MS) {
    expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    renewed = true;
    db.update(sessions).set({ expiresAt, lastSeenAt: now }).where(eq(sessions.id, id)).run();
  } else if (!row.session.lastSeenAt || now.getTime() - row.session.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) {
    db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id)).run();
  }
  return {
    session: { id, userId: row.session.userId, expiresAt, persistent: row.session.persistent, createdAt: row.session.createdAt, secondFactor: row.session.secondFactor },
    user: row.user,
    renewed,
  };
}

/** The session's own sign-in has now passed the second factor (the code that turned two-factor on). */
export function markSecondFactor(db: Db, sessionId: string): void {
  db.update(sessions).set({ secondFactor: true }).where(eq(sessions.id, sessionId)).run();
}

export function invalidateSession(db: Db, sessionId: string): void {
  db.delete(sessions).where(eq(sessions.id, sessionId)).run();
}

/** Ends every session of a user (password change or reset), or every one but `exceptId`. */
export function invalidateUserSessions(db: Db, userId: string, exceptId?: string): void {
  const where = exceptId ? and(eq(sessions.userId, userId), ne(sessions.id, exceptId)) : eq(sessions.userId, userId);
  db.delete(sessions).where(where).run();
}

export function setSessionCookie(c: Context, token: string, session: Session, secure: boolean): void {
  // Without Remember me the cookies have no expiry and end with the browser session.
  const expiry = session.persistent ? { expires: session.expiresAt } : {};
  writeCookie(c, SESSION_COOKIE, token, secure, expiry);
  writeCookie(c, SIGNED_IN_HINT_COOKIE, SIGNED_IN_HINT_VALUE, secure, { httpOnly: false, ...expiry });
}

export function deleteSessionCookie(c: Context, secure: boolean): void {
  clearCookie(c, SESSION_COOKIE, secure);
  if (readCookie(c, SIGNED_IN_HINT_COOKIE, secure) !== undefined) clearCookie(c, SIGNED_IN_HINT_COOKIE, secure, { httpOnly: false });
}

/** The session token the request carries, if any. */
export function readSessionCookie(c: Context, secure: boolean): string | undefined {
  return readCookie(c, SESSION_COOKIE, secure);
}

/** The sessions of a user, newest first, for the Security tab. */
export function listUserSessions(db: Db, userId: string) {
  return db
    .select({ id: sessions.id, userAgent: sessions.userAgent, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .all()
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
}
