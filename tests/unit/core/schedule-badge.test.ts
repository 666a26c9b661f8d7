import { describe, expect, it } from "vitest";
import { scheduleBadge } from "#core/schedule-badge.ts";

const t = (iso: string) => new Date(iso);
const now = t("2026-05-10T12:00:00Z");

describe("link schedule badge (docs/product.md section 4)", () => {
  it("shows nothing without a start or end", () => {
    expect(scheduleBadge(null, null, now)).toBeNull();
  });
  it("is scheduled before the start", () => {
    expect(scheduleBadge(t("2026-05-11T00:00:00Z"), null, now)).toEqual({ kind: "scheduled", at: t("2026-05-11T00:00:00Z") });
  });
  it("is expired after the end", () => {
    expect(scheduleBadge(null, t("2026-05-09T00:00:00Z"), now)).toEqual({ kind: "expired", at: t("2026-05-09T00:00:00Z") });
  });
  it("is active with its end, or with no end date", () => {
    expect(scheduleBadge(t("2026-05-01T00:00:00Z"), t("2026-05-20T00:00:00Z"), now)).toEqual({ kind: "active", at: t("2026-05-20T00:00:00Z") });
    expect(scheduleBadge(t("2026-05-01T00:00:00Z"), null, now)).toEqual({ kind: "active", at: null });
  });
});
