/**
 * Two-factor authentication (docs/product.md section 10: server-side 2FA). The server makes a 160-bit secret,
 * turns it on only after a valid code, checks TOTP codes (RFC 6238, 30 s steps, ±1 step) and never
 * accepts one time step twice, and keeps 8 single-use backup codes as SHA-256 hashes.
 */
import { and, eq } from "drizzle-orm";
import { decodeBase32IgnorePadding, encodeBase32UpperCaseNoPadding } from "@oslojs/encoding";
import { createTOTPKeyURI, generateHOTP } from "@oslojs/otp";
import QRCode from "qrcode";
import { randomBytes } from "node:crypto";
import { AUTH_LIMITS, BACKUP_CODE_RE, normalizeBackupCode } from "#core/schemas/auth.ts";
import type { Db } from "#db/client.ts";
import { user2faSettings } from "#db/schema.ts";
import { constantTimeEqual, sha256Hex } from "../auth/session.ts";
import { randomBackupCode } from "../auth/tokens.ts";

export type TwoFactorRow = typeof user2faSettings.$inferSelect;

export function getTwoFactor(db: Db, userId: string): TwoFactorRow | null {
  return db.select().from(user2faSettings).where(eq(user2faSettings.userId, userId)).get() ?? null;
}

export function isTwoFactorEnabled(db: Db, userId: string): boolean {
  return getTwoFactor(db, userId)?.isEnabled === true;
}

/** Starts (or restarts) setup: a fresh secret, not enabled until a code proves the app has it. */
export async function beginSetup(db: Db, user: { id: string; email: string }, now: Date) {
  const key = randomBytes(AUTH_LIMITS.TOTP_SECRET_BYTES);
  const secret = encodeBase32UpperCaseNoPadding(key);
  db.insert(user2faSettings)
    .values({ userId: user.id, secretKey: secret, isEnabled: false, backupCodes: [], lastUsedStep: null, updatedAt: now })
    .onConflictDoUpdate({
      target: user2faSettings.userId,
      set: { secretKey: secret, isEnabled: false, backupCodes: [], lastUsedStep: null, updatedAt: now },
    })
    .run();
  const uri = createTOTPKeyURI("Plinth", user.email, key, AUTH_LIMITS.TOTP_PERIOD_S, AUTH_LIMITS.TOTP_DIGITS);
  // Medium error correction, as the product's other QR codes (docs/product.md section 9).
  const qrSvg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 1 });
  return { secret, uri, qrDataUrl: `data:image/svg+xml;base64,${Buffer.from(qrSvg).toString("base64")}` };
}

const stepAt = (now: Date) => Math.floor(now.getTime() / 1000 / AUTH_LIMITS.TOTP_PERIOD_S);

/** The time step a TOTP code belongs to (now, one before or one after), or null. */
export function matchTotpStep(secret: string, code: string, now: Date, lastUsedStep: number | null): number | null {
  if (!/^[0-9]{6}$/.test(code)) return null;
  const key = decodeBase32IgnorePadding(secret);
  const current = stepAt(now);
  let matched: number | null = null;
  // Every candidate is computed and compared, so the time taken does not depend on which one matched.
  for (const step of [current - 1, current, current + 1]) {
    const expected = generateHOTP(key, BigInt(step), AUTH_LIMITS.TOTP_DIGITS);
    if (constantTimeEqual(expected, code) && (lastUsedStep === null || step > lastUsedStep) && matched === null) matched = step;
  }
  return matched;
}

/** The code an authenticator shows for a secret at a time (tests and the unit suite use it). */
export function totpAt(secret: string, at: Date, stepOffset = 0): string {
  return generateHOTP(decodeBase32IgnorePadding(secret), BigInt(stepAt(at) + stepOffset), AUTH_LIMITS.TOTP_DIGITS);
}

/** A fresh set of backup codes: as shown once to the owner, and as stored (SHA-256). */
function newBackupCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: AUTH_LIMITS.BACKUP_CODES }, randomBackupCode);
  return { codes, hashes: codes.map((c) => sha256Hex(normalizeBackupCode(c))) };
}

/** A setup begun (after the password) within the time allowed, and not yet confirmed. */
const setupPending = (row: TwoFactorRow | null, now: Date): row is TwoFactorRow & { secretKey: string } =>
  !!row && !row.isEnabled && !!row.secretKey && now.getTime() - row.updatedAt.getTime() <= AUTH_LIMITS.TWO_FACTOR_SETUP_TTL_MS;

/** Enables two-factor when the code is right; returns the backup codes to show once, or null. */
export function confirmSetup(db: Db, userId: string, code: string, now: Date): string[] | null {
  const row = getTwoFactor(db, userId);
  if (!setupPending(row, now)) return null;
  const step = matchTotpStep(row.secretKey, code, now, row.lastUsedStep);
  if (step === null) return null;
  const { codes, hashes } = newBackupCodes();
  db.update(user2faSettings).set({ isEnabled: true, lastUsedStep: step, backupCodes: hashes, updatedAt: now }).where(eq(user2faSettings.userId, userId)).run();
  return codes;
}

/** New backup codes for an enabled user; the old ones stop working at once. */
export function renewBackupCodes(db: Db, userId: string, now: Date): string[] {
  const { codes, hashes } = newBackupCodes();
  const changed = db
    .update(user2faSettings)
    .set({ backupCodes: hashes, updatedAt: now })
    .where(and(eq(user2faSettings.userId, userId), eq(user2faSettings.isEnabled, true)))
    .run().changes;
  if (!changed) throw new Error("Two-factor authentication is not on");
  return codes;
}

/**
 * Checks a second factor for an enabled user: a TOTP code (its step is then used up) or a backup
 * code (then removed). Returns which kind matched, or null.
 */
export function useSecondFactor(db: Db, userId: string, rawCode: string, now: Date): "totp" | "backup" | null {
  const row = getTwoFactor(db, userId);
  if (!row?.isEnabled || !row.secretKey) return null;
  const code = rawCode.trim();
  if (/^[0-9]{6}$/.test(code)) {
    const step = matchTotpStep(row.secretKey, code, now, row.lastUsedStep);
    if (step === null) return null;
    db.update(user2faSettings).set({ lastUsedStep: step, updatedAt: now }).where(eq(user2faSettings.userId, userId)).run();
    return "totp";
  }
  const normalized = normalizeBackupCode(code);
  if (!BACKUP_CODE_RE.test(normalized)) return null;
  const hash = sha256Hex(normalized);
  let index = -1;
  row.backupCodes.forEach((stored, i) => {
    if (constantTimeEqual(stored, hash) && index === -1) index = i;
  });
  if (index === -1) return null;
  const remaining = row.backupCodes.filter((_, i) => i !== index);
  db.update(user2faSettings).set({ backupCodes: remaining, updatedAt: now }).where(eq(user2faSettings.userId, userId)).run();
  return "backup";
}

/** docs/product.md section 4: disabling clears the secret and the codes. */
export function disableTwoFactor(db: Db, userId: string, now: Date): void {
  db.update(user2faSettings)
    .set({ isEnabled: false, secretKey: null, backupCodes: [], lastUsedStep: null, updatedAt: now })
    .where(eq(user2faSettings.userId, userId))
    .run();
}

export function twoFactorStatus(db: Db, userId: string, now: Date) {
  const row = getTwoFactor(db, userId);
  return {
    enabled: row?.isEnabled === true,
    pendingSetup: setupPending(row, now),
    backupCodesLeft: row?.isEnabled ? row.backupCodes.length : 0,
  };
}
