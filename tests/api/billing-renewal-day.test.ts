/**
 * The test-mode provider renews on the subscription's billing day (issue 23): a subscription started
 * on 2027-01-31 renews on Feb 28, then Mar 31 and Apr 30, as hosted providers do. The app's clock is
 * injected (AppDeps.now) and moved to each period end; the provider's own clock does the renewing.
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { extendSubscriptionFromBalance } from "#api/services/billing.ts";
import { invoices } from "#db/schema.ts";
import type { TestApp } from "#tests/support/app.ts";
import { clockedApp, profileOf, subscribe, type ClockedApp } from "#tests/support/billing.ts";
import { createApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
let app: ClockedApp;
beforeEach(() => {
  app = clockedApp("2027-01-31T10:00:00.000Z");
  t = app.t;
});
afterEach(() => t.close());

const day = (d: Date | null) => d?.toISOString() ?? null;

describe("renewal keeps the billing day", () => {
  it("from Jan 31: Feb 28, Mar 31, Apr 30, each renewal invoiced for its period", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner);
    const ends = [day(profileOf(t, owner.userId).currentPeriodEndDate)];
    for (let i = 0; i < 3; i++) {
      // The moment the period ends, and not a millisecond earlier, the provider renews.
      await app.renewAtPeriodEnd(owner.userId);
      ends.push(day(profileOf(t, owner.userId).currentPeriodEndDate));
    }
    expect(ends).toEqual(["2027-02-28T10:00:00.000Z", "2027-03-31T10:00:00.000Z", "2027-04-30T10:00:00.000Z", "2027-05-31T10:00:00.000Z"]);
    const periods = t.deps.db
      .select({ start: invoices.periodStart, end: invoices.periodEnd, status: invoices.status })
      .from(invoices)
      .where(eq(invoices.userId, owner.userId))
      .orderBy(invoices.createdAt)
      .all()
      .map((r) => `${day(r.start)?.slice(0, 10)}..${day(r.end)?.slice(0, 10)} ${r.status}`);
    expect(periods).toEqual(["2027-01-31..2027-02-28 paid", "2027-02-28..2027-03-31 paid", "2027-03-31..2027-04-30 paid", "2027-04-30..2027-05-31 paid"]);
  });

  it("months paid from the rewards balance end on the billing day too", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner);
    app.setClock("2027-02-10T09:00:00.000Z");
    // Feb 28 + 1 month on the 31st billing day: Mar 31, not Mar 28.
    expect(day(await extendSubscriptionFromBalance(t.deps, owner.userId, 1))).toBe("2027-03-31T10:00:00.000Z");
    expect(day(profileOf(t, owner.userId).currentPeriodEndDate)).toBe("2027-03-31T10:00:00.000Z");
  });
});
