import { generateHOTP } from "@oslojs/otp";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { describe, expect, it } from "vitest";
import { matchTotpStep, totpAt } from "#api/services/two-factor.ts";

// RFC 6238 appendix B: the SHA-1 test key "12345678901234567890".
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

describe("TOTP (RFC 6238)", () => {
  it("matches the RFC's test vectors (last six digits)", () => {
    expect(totpAt(RFC_SECRET, new Date(59_000))).toBe("287082");
    expect(totpAt(RFC_SECRET, new Date(1_111_111_109_000))).toBe("081804");
    expect(totpAt(RFC_SECRET, new Date(1_234_567_890_000))).toBe("005924");
    expect(generateHOTP(decodeBase32IgnorePadding(RFC_SECRET), 1n, 6)).toBe("287082");
  });

  it("accepts the step before, now and after, not two away", () => {
    const at = new Date(1_700_000_000_000);
    const step = Math.floor(at.getTime() / 30_000);
    for (const offset of [-1, 0, 1]) expect(matchTotpStep(RFC_SECRET, totpAt(RFC_SECRET, at, offset), at, null)).toBe(step + offset);
    for (const offset of [-3, -2, 2, 3]) {
      const code = totpAt(RFC_SECRET, at, offset);
      const collides = [-1, 0, 1].some((o) => totpAt(RFC_SECRET, at, o) === code);
      if (!collides) expect(matchTotpStep(RFC_SECRET, code, at, null)).toBeNull();
    }
  });

  it("never accepts a step at or before the last one used (no replay)", () => {
    const at = new Date(1_700_000_000_000);
    const step = Math.floor(at.getTime() / 30_000);
    const code = totpAt(RFC_SECRET, at);
    expect(matchTotpStep(RFC_SECRET, code, at, step)).toBeNull();
    expect(matchTotpStep(RFC_SECRET, code, at, step - 1)).toBe(step);
  });

  it("rejects a wrong code of the right length and malformed codes", () => {
    const at = new Date(1_700_000_000_000);
    const right = totpAt(RFC_SECRET, at);
    const candidates = [-1, 0, 1].map((o) => totpAt(RFC_SECRET, at, o));
    let wrong = right;
    for (let i = 1; candidates.includes(wrong); i++) wrong = ((Number(right) + i) % 1_000_000).toString().padStart(6, "0");
    expect(matchTotpStep(RFC_SECRET, wrong, at, null)).toBeNull();
    for (const bad of ["", "12345", "1234567", "abcdef", ` ${right}`]) expect(matchTotpStep(RFC_SECRET, bad, at, null)).toBeNull();
  });
});
