/**
 * Deleting an account that has a subscription (ADR 049): the owner is warned first (the server asks
 * for that acknowledgement), the subscription ends at the billing provider before anything is
 * deleted, a provider failure stops the deletion with a clear message and leaves everything as it
 * was, and the invoices stay as records, detached from the deleted account.
 */
import { eq, isNull } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BILLING_MESSAGES } from "#core/schemas/billing.ts";
import { billingCustomers, invoices, testBillingInvoices, testBillingSubscriptions, userProfiles, users } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { CARDS, endPeriodNow, providerSubscription, subscribe, tick } from "#tests/support/billing.ts";
import { mailsTo } from "#tests/support/mail.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const emailOf = (o: ApiOwner) => `${o.username}@example.com`;
const subjects = (o: ApiOwner) => mailsTo(t.deps.env.OUTBOX_DIR, emailOf(o)).map((m) => m.subject);
const userRow = (o: ApiOwner) => t.deps.db.select().from(users).where(eq(users.id, o.userId)).get();
/** The provider's own record of the subscription, looked up by id (it outlives the account). */
const atProvider = (id: string) => t.deps.db.select().from(testBillingSubscriptions).where(eq(testBillingSubscriptions.id, id)).get()!;

describe("deleting an account with a subscription", () => {
  it("asks for the warning to be acknowledged, ends the subscription now at the provider, and keeps the invoices as detached records", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner);
    const sub = providerSubscription(t, owner.userId);
    expect(sub.status).toBe("active");
    const invoiceId = t.deps.db.select().from(invoices).where(eq(invoices.userId, owner.userId)).get()!.id;
    t.deps.db.update(userProfiles).set({ displayName: "Ada Lovelace" }).where(eq(userProfiles.userId, owner.userId)).run();
    expect((await json(await owner.call("GET", "/api/auth/account"))).body.subscriptionEndsOnDelete).toBe(true);

    // A dialog that never showed the warning (opened before subscribing): refused, nothing changed.
    const unwarned = await json(await owner.call("DELETE", "/api/auth/account", { confirmUsername: owner.username }));
    expect(unwarned).toMatchObject({ status: 409, body: { error: { message: BILLING_MESSAGES.deleteNeedsSubscriptionEnd, details: { subscription: true } } } });
    expect(atProvider(sub.id).status).toBe("active");
    expect(userRow(owner)).toBeTruthy();

    const deleted = await json(await owner.call("DELETE", "/api/auth/account", { confirmUsername: owner.username, endSubscription: true }));
    expect(deleted).toEqual({ status: 200, body: { deleted: true } });
    expect(userRow(owner)).toBeUndefined();

    // Ended now at the provider, not at the period end; nothing renews it.
    const ended = atProvider(sub.id);
    expect(ended.status).toBe("canceled");
    expect(ended.endedAt!.getTime()).toBeLessThan(ended.currentPeriodEnd.getTime());
    endPeriodNow(t.deps.db, sub.id);
    await tick(t);
    expect(t.deps.db.select().from(testBillingInvoices).where(eq(testBillingInvoices.subscriptionId, sub.id)).all()).toHaveLength(1);

    // The invoice is a record: kept, detached, with who was billed.
    const kept = t.deps.db.select().from(invoices).where(eq(invoices.id, invoiceId)).get()!;
    expect(kept).toMatchObject({ userId: null, status: "paid", billedEmail: emailOf(owner), billedUsername: owner.username, billedName: "Ada Lovelace" });
    // Readable by nobody through the product: another owner gets "Invoice not found".
    const stranger = createApiOwner(t, "plus");
    expect(await json(await stranger.call("GET", `/api/billing/invoices/${invoiceId}`))).toMatchObject({ status: 404, body: { error: { message: BILLING_MESSAGES.invoiceNotFound } } });
    expect(t.deps.db.select().from(billingCustomers).where(eq(billingCustomers.userId, owner.userId)).all()).toHaveLength(0);

    // One last mail says so; no "your subscription has ended, subscribe again" mail.
    expect(subjects(owner)).toContain("Your Plinth account was deleted");
    expect(subjects(owner)).not.toContain("Your Plinth Plus subscription has ended");
    expect(mailsTo(t.deps.env.OUTBOX_DIR, emailOf(owner)).find((m) => m.subject === "Your Plinth account was deleted")!.text).toContain("Your Plinth Plus subscription has ended");
  });

  it("a past-due subscription ends too: its open invoice is voided at the provider and kept as void", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner, CARDS.declineRenewals);
    const sub = providerSubscription(t, owner.userId);
    endPeriodNow(t.deps.db, sub.id);
    await tick(t);
    expect(t.deps.db.select().from(userProfiles).where(eq(userProfiles.userId, owner.userId)).get()!.subscriptionStatus).toBe("past_due_plus");

    expect((await owner.call("DELETE", "/api/auth/account", { confirmUsername: owner.username, endSubscription: true })).status).toBe(200);
    expect(atProvider(sub.id).status).toBe("canceled");
    const kept = t.deps.db.select().from(invoices).where(isNull(invoices.userId)).all();
    expect(kept.map((i) => i.status).sort()).toEqual(["paid", "void"]);
    for (const i of kept) expect(i.billedUsername).toBe(owner.username);
  });

  it("a provider that cannot end the subscription stops the deletion with a clear message, and leaves everything as it was", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner);
    const sub = providerSubscription(t, owner.userId);
    const before = t.deps.db.select().from(billingCustomers).where(eq(billingCustomers.userId, owner.userId)).get()!;
    // The provider's own write fails (as a hosted provider that is down answers with an error).
    t.deps.db.$client.exec(`CREATE TRIGGER provider_down BEFORE UPDATE ON test_billing_subscriptions BEGIN SELECT RAISE(ABORT, 'provider unavailable'); END;`);

    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const res = await json(await owner.call("DELETE", "/api/auth/account", { confirmUsername: owner.username, endSubscription: true }));
    expect(res).toMatchObject({ status: 502, body: { error: { message: BILLING_MESSAGES.deleteSubscriptionEndFailed } } });
    // The operator sees why in the log.
    expect(logged).toHaveBeenCalledWith(expect.stringContaining("Ending a subscription"), expect.stringMatching(new RegExp(`^(?=.*"userId":"${owner.userId}")(?=.*provider unavailable)`)));
    logged.mockRestore();
    expect(userRow(owner)).toBeTruthy();
    expect(t.deps.db.select().from(billingCustomers).where(eq(billingCustomers.userId, owner.userId)).get()).toEqual(before);
    expect(t.deps.db.select().from(userProfiles).where(eq(userProfiles.userId, owner.userId)).get()).toMatchObject({ planType: "plus", subscriptionStatus: "active_plus" });
    expect(atProvider(sub.id).status).toBe("active");
    expect(t.deps.db.select().from(invoices).where(eq(invoices.userId, owner.userId)).all()).toHaveLength(1);
    expect((await owner.call("GET", "/api/me")).status).toBe(200);
    expect(subjects(owner)).not.toContain("Your Plinth account was deleted");

    // Once the provider answers again, the same request goes through.
    t.deps.db.$client.exec("DROP TRIGGER provider_down");
    expect((await owner.call("DELETE", "/api/auth/account", { confirmUsername: owner.username, endSubscription: true })).status).toBe(200);
    expect(atProvider(sub.id).status).toBe("canceled");
  });

  it("an account without a subscription needs no acknowledgement, and a wrong confirmation ends nothing", async () => {
    const plain = createApiOwner(t, "lite");
    expect((await json(await plain.call("GET", "/api/auth/account"))).body.subscriptionEndsOnDelete).toBe(false);
    expect((await plain.call("DELETE", "/api/auth/account", { confirmUsername: plain.username })).status).toBe(200);

    const owner = createApiOwner(t, "lite");
    await subscribe(owner);
    const sub = providerSubscription(t, owner.userId);
    expect((await owner.call("DELETE", "/api/auth/account", { confirmUsername: "someone_else", endSubscription: true })).status).toBe(400);
    expect((await owner.call("DELETE", "/api/auth/account", { confirmUsername: owner.username, endSubscription: "yes" })).status).toBe(400);
    expect(atProvider(sub.id).status).toBe("active");
    expect(userRow(owner)).toBeTruthy();
  });
});
