/**
 * What the account fields do, for the dashboard's React fields (OtpInput.tsx, PasswordStrength.tsx)
 * and the sign-in and signup pages' fields without React (page.ts) alike.
 */

/** How the password meter shows each strength: its word and its bar's colour. */
export const STRENGTH_LOOK = { weak: ["Weak", "bg-red-600"], medium: ["Medium", "bg-amber-500"], strong: ["Strong", "bg-green-600"] } as const;

/**
 * What one event in box `i` of a one-time-code field does to the code (docs/product.md section 5, OTP): the
 * code after it and the box to focus, or null when nothing changes.
 */
export interface OtpStep {
  code: string;
  focus: number;
}

const digitsOnly = (s: string) => s.replace(/\D/g, "");

function settle(next: string, length: number, focus: number): OtpStep {
  return { code: digitsOnly(next).slice(0, length), focus: Math.max(0, Math.min(focus, length - 1)) };
}

function fill(code: string, length: number, i: number, added: string): OtpStep {
  // One digit replaces this box's; several at once (autofill of a one-time code) fill from here on.
  const before = code.slice(0, i);
  const after = added.length === 1 ? code.slice(i + 1) : "";
  return settle(before + added + after, length, before.length + added.length);
}

/** Box i now holds `raw`: a replacement digit, one more digit typed beside the old one, or a whole code. */
export function otpTyped(code: string, length: number, i: number, raw: string): OtpStep | null {
  const got = digitsOnly(raw);
  const old = code[i] ?? "";
  if (!got) return raw === "" && old ? settle(code.slice(0, i) + code.slice(i + 1), length, i) : null;
  if (got.length === 2 && old && got.includes(old)) return fill(code, length, i, got[0] === old ? got[1]! : got[0]!);
  return fill(code, length, i, got);
}

/**
 * A key the boxes handle themselves, or null for any other: Backspace clears box i's digit, or,
 * when it is empty, the one before (and moves there); the arrows move between boxes.
 */
export function otpKey(code: string, length: number, i: number, key: string): { step: OtpStep | null } | { move: number } | null {
  if (key === "Backspace") {
    if (code[i]) return { step: settle(code.slice(0, i) + code.slice(i + 1), length, i) };
    return { step: i > 0 ? settle(code.slice(0, i - 1) + code.slice(i), length, i - 1) : null };
  }
  if (key === "ArrowLeft" && i > 0) return { move: i - 1 };
  if (key === "ArrowRight" && i < length - 1) return { move: i + 1 };
  return null;
}

/** A paste that carries digits fills every box; anything else is an ordinary paste (null). */
export function otpPasted(text: string, length: number): OtpStep | null {
  const code = digitsOnly(text).slice(0, length);
  return code ? settle(code, length, code.length) : null;
}
