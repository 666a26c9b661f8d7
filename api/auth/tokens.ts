/**
 * Random secrets for links and codes. Every token handed to a browser or an e-mail carries at least
 * 160 random bits; the database keeps only a SHA-256 of it (see sha256Hex in session.ts), so a
 * leaked table yields nothing usable.
 */
import { randomBytes, randomInt } from "node:crypto";
import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";

/** 20 random bytes as 32 lowercase base32 characters (160 bits). */
export function randomToken(): string {
  return encodeBase32LowerCaseNoPadding(randomBytes(20));
}

/** A uniformly random six-digit code, leading zeros kept. */
export function randomSixDigitCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, "0");
}

/** A backup code: 10 base32 characters (50 bits), shown as xxxxx-xxxxx. */
export function randomBackupCode(): string {
  const raw = encodeBase32LowerCaseNoPadding(randomBytes(7)).slice(0, 10);
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
}
