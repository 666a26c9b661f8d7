import { describe, expect, it } from "vitest";
import { scheduleBadge } from "#core/schedule-badge.ts";

const d = (s: string) => new Date(s);
const now = d("2030-06-01T12:00:00Z");

describe("scheduleBadge (docs/product.md section 4)", () => {
  it("gives no badge without a schedule", () => expect(scheduleBadge(null, null, now)).toBeNull());
  it("is scheduled before the start", () => expect(scheduleBadge(d("2030-07-01T00:00:00Z"), null, now)).toEqual({ kind: "scheduled", at: d("2030-07-01T00:00:00Z") }));
  it("is expired after the end", () => expect(scheduleBadge(null, d("2030-05-01T00:00:00Z"), now)).toEqual({ kind: "expired", at: d("2030-05-01T00:00:00Z") }));
  it("is active with an end", () => expect(scheduleBadge(d("2030-05-01T00:00:00Z"), d("2030-07-01T00:00:00Z"), now)).toEqual({ kind: "active", at: d("2030-07-01T00:00:00Z") }));
  it("is active with no end date", () => expect(scheduleBadge(d("2030-05-01T00:00:00Z"), null, now)).toEqual({ kind: "active", at: null }));
});
