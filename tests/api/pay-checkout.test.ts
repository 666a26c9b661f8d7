/**
 * The checkout a published page's form posts to (ADR 232): the amount is the server's (a price or an
 * amount changed by the client is refused or ignored), the session is made on the creator's Connect
 * account with the operator's fee, the visitor's note is length-limited and cleaned, and a suspended
 * page or account, a Lite owner, an unpublished or hidden item and an unconnected owner answer 410.
 */
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { PAYMENT_MESSAGES } from "#core/payments.ts";
import { links, sales, testConnectSessions, userProfiles, users } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { createApiOwner } from "#tests/support/owner.ts";
import { clockedApp } from "#tests/support/billing.ts";
import { PAY_RATE_LIMITED } from "#api/routes/pay.ts";
import { addLink, connectOwner, payForm, sellingOwner, tipBody } from "#tests/support/payments.ts";
import { startStripeStandIn, stripeAccount, STRIPE_TEST_ENV, type StripeStandIn } from "#tests/support/stripe.ts";

let t: TestApp;
let stripe: StripeStandIn | undefined;
afterEach(async () => {
  await t.close();
  await stripe?.close();
  stripe = undefined;
});

const allSales = () => t.deps.db.select().from(sales).all();
const sessionOf = (id: string) => t.deps.db.select().from(testConnectSessions).where(eq(testConnectSessions.id, id)).get()!;
const errorOf = async (res: Response) => ({ status: res.status, message: ((await res.json()) as any).error?.message as string });

describe("checkout with the test provider", () => {
  it("redirects a suggested tip to a session on the creator's account for that amount, with the 5% fee, and records the sale open", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const { tipId } = await sellingOwner(t, owner);
    const res = await payForm(t, tipId, { amount: "500", note: "  Great page!  ", private: "on" });
    expect(res.status).toBe(303);
    const location = res.headers.get("location")!;
    expect(location).toMatch(/^http:\/\/localhost:4321\/billing\/pay\?session=cs_test_/);
    const [sale] = allSales();
    expect(sale).toMatchObject({ userId: owner.userId, linkId: tipId, kind: "tip", itemTitle: "Buy me a coffee", amount: 500, currency: "usd", feeAmount: 25, note: "Great page!", notePrivate: true, status: "open" });
    const session = sessionOf(new URL(location).searchParams.get("session")!);
    expect(session).toMatchObject({ amount: 500, currency: "usd", feeAmount: 25, kind: "tip", name: "Buy me a coffee" });
    expect(JSON.parse(session.metadata)).toEqual({ saleId: sale!.id });
    expect(session.successUrl).toBe(`http://localhost:4321/pay/thanks?sale=${sale!.id}&key=${sale!.receiptKey}`);
    expect(session.cancelUrl).toBe(`http://localhost:4321/${owner.username}`);
  });

  it("takes an amount of the visitor's own only within the owner's range, and never a made-up suggested amount", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const { tipId } = await sellingOwner(t, owner);
    expect((await payForm(t, tipId, { amount: "custom", custom: "7.50" })).status).toBe(303);
    expect(allSales().map((s) => s.amount)).toEqual([750]);
    const refused: [Record<string, string>, string][] = [
      [{ amount: "1" }, PAYMENT_MESSAGES.amountInvalid], // not a suggested amount: a changed price
      [{ amount: "499" }, PAYMENT_MESSAGES.amountInvalid],
      [{ amount: "custom", custom: "0.50" }, PAYMENT_MESSAGES.amountTooSmall],
      [{ amount: "custom", custom: "200.01" }, PAYMENT_MESSAGES.amountTooLarge],
      [{ amount: "custom", custom: "-5" }, PAYMENT_MESSAGES.amountInvalid],
      [{ amount: "custom", custom: "1e3" }, PAYMENT_MESSAGES.amountInvalid],
      [{ amount: "custom", custom: "<script>" }, PAYMENT_MESSAGES.amountInvalid],
      [{}, PAYMENT_MESSAGES.amountInvalid],
    ];
    for (const [fields, message] of refused) {
      const res = await errorOf(await payForm(t, tipId, fields));
      expect(res, JSON.stringify(fields)).toEqual({ status: 400, message });
    }
    expect(allSales()).toHaveLength(1);
  });

  it("charges a download's stored price whatever the form says", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const { downloadId, fileId } = await sellingOwner(t, owner);
    const res = await payForm(t, downloadId, { amount: "1", price: "1", custom: "0.01", currency: "jpy" });
    expect(res.status).toBe(303);
    expect(allSales()[0]).toMatchObject({ kind: "download", amount: 900, currency: "usd", feeAmount: 45, fileId, note: "" });
  });

  it("charges the published price: a draft change is not charged until it is published", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const { tipId } = await sellingOwner(t, owner);
    t.deps.db.update(links).set({ linkSpecificData: { currency: "usd", amounts: "100000", custom: "off", min: "100", max: "100000" } }).where(eq(links.id, tipId)).run();
    expect((await payForm(t, tipId, { amount: "100000" })).status).toBe(400);
    expect((await payForm(t, tipId, { amount: "300" })).status).toBe(303);
  });

  it("refuses a note too long or with invisible characters, oversized and hostile forms, and unknown ids, recording nothing", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const { tipId } = await sellingOwner(t, owner);
    expect((await errorOf(await payForm(t, tipId, { amount: "500", note: "x".repeat(201) }))).message).toBe(PAYMENT_MESSAGES.noteTooLong);
    expect((await payForm(t, tipId, { amount: "500", note: "hi\u202eevil" })).status).toBe(400);
    expect((await payForm(t, tipId, { amount: "500", private: "yes" })).status).toBe(400);
    expect((await payForm(t, tipId, { amount: "500", note: "x".repeat(5000) })).status).toBe(413);
    const multipart = new FormData();
    multipart.append("amount", new Blob(["500"]), "a.txt");
    expect((await t.app.request(`/api/pay/${tipId}`, { method: "POST", body: multipart })).status).toBe(400);
    for (const id of ["nope", "x".repeat(65), "..%2F..%2Fetc"]) expect([400, 404]).toContain((await payForm(t, id, { amount: "500" })).status);
    // Another owner's link id with this owner's... there is no owner here: a plain label is not a payment item.
    const label = await addLink(owner, { linkType: "label", title: "Section" });
    await owner.call("POST", "/api/publish");
    expect((await payForm(t, label, { amount: "500" })).status).toBe(410);
    expect(allSales()).toHaveLength(0);
  });

  it("answers 410 for a suspended page or account, a Lite owner, a hidden or unpublished item and an owner not taking payments", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const { tipId } = await sellingOwner(t, owner);
    const expectGone = async (message: string = PAYMENT_MESSAGES.notAvailable) => expect(await errorOf(await payForm(t, tipId, { amount: "500" }))).toEqual({ status: 410, message });
    const db = t.deps.db;

    db.update(userProfiles).set({ pageSuspendedAt: new Date() }).where(eq(userProfiles.userId, owner.userId)).run();
    await expectGone();
    db.update(userProfiles).set({ pageSuspendedAt: null }).where(eq(userProfiles.userId, owner.userId)).run();

    db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, owner.userId)).run();
    await expectGone();
    db.update(users).set({ suspendedAt: null }).where(eq(users.id, owner.userId)).run();

    db.update(userProfiles).set({ planType: "lite", subscriptionStatus: null }).where(eq(userProfiles.userId, owner.userId)).run();
    await expectGone();
    db.update(userProfiles).set({ planType: "plus", subscriptionStatus: "active_plus" }).where(eq(userProfiles.userId, owner.userId)).run();

    // Hidden and published: the page no longer shows it.
    db.update(links).set({ isActive: false }).where(eq(links.id, tipId)).run();
    expect((await owner.call("POST", "/api/publish")).status).toBe(200);
    await expectGone();

    // An owner who never connected (or whose account Stripe restricted) takes nothing.
    const other = createApiOwner(t, "plus");
    const otherTip = await addLink(other, tipBody());
    await other.call("POST", "/api/publish");
    expect(await errorOf(await payForm(t, otherTip, { amount: "500" }))).toEqual({ status: 410, message: PAYMENT_MESSAGES.notTakingPayments });
    // Added but never published: not on any page.
    await connectOwner(other);
    const unpublished = await addLink(other, tipBody({}, "New tip"));
    expect((await errorOf(await payForm(t, unpublished, { amount: "500" }))).status).toBe(410);
    expect(allSales()).toHaveLength(0);
  });
});

describe("checkout rate limit", () => {
  it("lets one visitor address start 20 checkouts at once, then answers 429 until the bucket refills, without recording a sale", async () => {
    const clocked = clockedApp("2026-11-28T10:00:00Z");
    t = clocked.t;
    const owner = createApiOwner(t, "plus");
    const { tipId } = await sellingOwner(t, owner);
    for (let i = 0; i < 20; i++) expect((await payForm(t, tipId, { amount: "300" })).status).toBe(303);
    expect(await errorOf(await payForm(t, tipId, { amount: "300" }))).toEqual({ status: 429, message: PAY_RATE_LIMITED });
    expect(allSales()).toHaveLength(20);
    clocked.setClock("2026-11-28T10:00:06Z");
    expect((await payForm(t, tipId, { amount: "300" })).status).toBe(303);
  });
});

describe("checkout with Stripe", () => {
  it("makes a payment-mode Checkout Session on the connected account (Stripe-Account) with application_fee_amount and the server's price", async () => {
    stripe = await startStripeStandIn();
    t = createTestApp({ ...STRIPE_TEST_ENV, STRIPE_API_BASE: stripe.base, STRIPE_CONNECT: "1", STRIPE_CONNECT_WEBHOOK_SECRET: "whsec_PlinthConnectStandInSecret00", PLATFORM_FEE_PERCENT: "10" });
    const owner = createApiOwner(t, "plus");
    await owner.call("POST", "/api/connect/onboarding");
    const accountId = t.deps.db.select().from(sales).all().length === 0 ? [...stripe.accounts.keys()][0]! : "";
    stripe.accounts.set(accountId, stripeAccount({ id: accountId, email: null, onboarded: true }));
    await owner.call("GET", "/api/connect/onboarding/return");
    const tipId = await addLink(owner, tipBody());
    await owner.call("POST", "/api/publish");

    const res = await payForm(t, tipId, { amount: "1000" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const call = stripe.calls.find((c) => c.path === "/v1/checkout/sessions")!;
    expect(call.stripeAccount).toBe(accountId);
    const sale = allSales()[0]!;
    expect(call.params).toMatchObject({
      mode: "payment",
      submit_type: "donate",
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "1000",
      "line_items[0][price_data][product_data][name]": "Buy me a coffee",
      "payment_intent_data[application_fee_amount]": "100",
      "payment_intent_data[metadata][saleId]": sale.id,
      "metadata[saleId]": sale.id,
      success_url: `http://localhost:4321/pay/thanks?sale=${sale.id}&key=${sale.receiptKey}`,
      cancel_url: `http://localhost:4321/${owner.username}`,
    });
    expect(call.idempotencyKey).toMatch(/^plinth-connect-checkout-/);
    expect(sale).toMatchObject({ provider: "stripe", accountId, sessionId: expect.stringMatching(/^cs_test_/), feeAmount: 100 });

    // Stripe refuses: 502 with the visitor's message, and no sale is left behind.
    stripe.failNext(400, /checkout/);
    expect(await errorOf(await payForm(t, tipId, { amount: "1000" }))).toEqual({ status: 502, message: "Payments are not available right now. Please try again later." });
    expect(allSales()).toHaveLength(1);
  });
});
