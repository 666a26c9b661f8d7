/**
 * Checks shared by the hostile-input suites: whatever a route is sent, it never answers 500, and
 * every refusal has the one JSON error shape (api/errors.ts).
 */
import { expect } from "vitest";

export function expectErrorShape(status: number, text: string, where: string): void {
  expect(status, `${where} -> ${status} ${text.slice(0, 200)}`).toBeLessThan(500);
  if (status >= 400) {
    const parsed = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    expect(typeof parsed.error?.code, where).toBe("string");
    expect(typeof parsed.error?.message, where).toBe("string");
  }
}
