/**
 * After the payment (ADR 232, 233): the Connect webhook makes the sale paid (signed, once, each
 * event recorded with its effect, nothing trusted that does not match the sale the server made),
 * the buyer gets a signed download link by e-mail and on the success page, and the link stops
 * working after 5 downloads, after 72 hours (the app's clock) and after a refund.
 */
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { PAYMENT_MESSAGES } from "#core/payments.ts";
import { BILLING_MESSAGES } from "#core/schemas/billing.ts";
import { billingWebhookEvents, connectAccounts, downloadGrants, sales, testBillingEvents } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { clockedApp, signed } from "#tests/support/billing.ts";
import { mailsTo, readOutbox } from "#tests/support/mail.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";
import { addLink, BUYER, buy, connectOwner, downloadBody, payForm, PDF, sellingOwner, uploadDownload } from "#tests/support/payments.ts";
import { signedDelivery, startStripeStandIn, stripeAccount, stripeEvent, STRIPE_TEST_ENV, type StripeStandIn } from "#tests/support/stripe.ts";

let t: TestApp;
let stripe: StripeStandIn | undefined;
afterEach(async () => {
  await t.close();
  await stripe?.close();
  stripe = undefined;
});

const saleRows = () => t.deps.db.select().from(sales).all();
const mailLink = () => {
  const mail = mailsTo(t.deps.env.OUTBOX_DIR, BUYER).at(-1)!;
  return /http:\/\/localhost:4321(\/api\/pay\/download\/\S+)/.exec(mail.text)![1]!;
};
const get = (path: string) => t.app.request(path);
const errorOf = async (res: Response) => ({ status: res.status, message: ((await res.json()) as any).error?.message as string });
const postWebhook = (body: string, headers: Record<string, string>) => t.app.request("/api/billing/webhook", { method: "POST", body, headers });

async function boughtDownload(owner: ApiOwner) {
  const { downloadId } = await sellingOwner(t, owner);
  const bought = await buy(t, downloadId, {});
  return { downloadId, ...bought };
}

describe("a paid download with the test provider", () => {
  it("is paid by the webhook, e-mails the buyer a signed link and shows it on the success page; the link serves the file as an attachment", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const { redirectUrl } = await boughtDownload(owner);
    const sale = saleRows()[0]!;
    expect(sale).toMatchObject({ status: "paid", buyerEmail: BUYER, amount: 900, feeAmount: 45, paymentIntentId: expect.stringMatching(/^pi_test_/) });
    expect(redirectUrl).toBe(`http://localhost:4321/pay/thanks?sale=${sale.id}&key=${sale.receiptKey}`);

    const mails = mailsTo(t.deps.env.OUTBOX_DIR, BUYER);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Your download: The guide");
    expect(mails[0]!.text).toContain("The link works 5 times");
    const path = mailLink();

    const receipt = await get(`/api/pay/sales/${sale.id}?key=${sale.receiptKey}`);
    const body = (await receipt.json()) as any;
    expect(body).toMatchObject({ status: "paid", kind: "download", title: "The guide", message: "Enjoy it", downloadUrl: `http://localhost:4321${path}` });
    expect((await get(`/api/pay/sales/${sale.id}?key=${"0".repeat(32)}`)).status).toBe(404);

    const file = await get(path);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(file.headers.get("content-disposition")).toBe(`attachment; filename="guide.pdf"; filename*=UTF-8''guide.pdf`);
    expect(file.headers.get("cache-control")).toBe("no-store");
    expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);
  });

  it("is named by its file's name in the analytics table, never by the file's id", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const { downloadId, fileId } = await sellingOwner(t, owner);
    const now = Date.now();
    const report = (await (await owner.call("GET", `/api/analytics?from=${new Date(now - 86_400_000).toISOString()}&to=${new Date(now + 86_400_000).toISOString()}`)).json()) as any;
    const row = report.links.find((l: any) => l.linkId === downloadId);
    expect(row.target).toBe("Paid Download: guide.pdf");
    expect(row.target).not.toContain(fileId);
  });

  it("stops after 5 downloads", async () => {
    t = createTestApp();
    await boughtDownload(createApiOwner(t, "plus"));
    const path = mailLink();
    for (let i = 0; i < 5; i++) expect((await get(path)).status).toBe(200);
    expect(await errorOf(await get(path))).toEqual({ status: 410, message: PAYMENT_MESSAGES.linkUsedUp });
    expect(t.deps.db.select().from(downloadGrants).get()!.uses).toBe(5);
  });

  it("stops after 72 hours, by the app's clock", async () => {
    const clocked = clockedApp("2026-11-28T10:00:00Z");
    t = clocked.t;
    await boughtDownload(createApiOwner(t, "plus"));
    const path = mailLink();
    clocked.setClock("2026-12-01T09:59:59Z");
    expect((await get(path)).status).toBe(200);
    clocked.setClock("2026-12-01T10:00:00Z");
    expect(await errorOf(await get(path))).toEqual({ status: 410, message: PAYMENT_MESSAGES.linkExpired });
  });

  it("stops after a refund made on the provider, which only the account's owner can make", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const { sessionId } = await boughtDownload(owner);
    const path = mailLink();
    expect((await get(path)).status).toBe(200);
    const other = createApiOwner(t, "plus");
    expect((await other.call("POST", `/api/connect/test/sessions/${sessionId}/refund`)).status).toBe(404);
    expect((await get(path)).status).toBe(200);
    expect((await owner.call("POST", `/api/connect/test/sessions/${sessionId}/refund`)).status).toBe(200);
    expect(saleRows()[0]).toMatchObject({ status: "refunded" });
    expect(await errorOf(await get(path))).toEqual({ status: 410, message: PAYMENT_MESSAGES.linkRefunded });
    const receipt = (await (await get(`/api/pay/sales/${saleRows()[0]!.id}?key=${saleRows()[0]!.receiptKey}`)).json()) as any;
    expect(receipt).toMatchObject({ status: "refunded", downloadUrl: null });
    expect((await owner.call("POST", `/api/connect/test/sessions/${sessionId}/refund`)).status).toBe(409);
  });

  it("refuses a link that is not valid: made up, another grant's signature, a changed expiry, hostile text", async () => {
    t = createTestApp();
    await boughtDownload(createApiOwner(t, "plus"));
    const path = mailLink();
    const [id, expires, sig] = path.split("/").pop()!.split(".") as [string, string, string];
    const flipped = sig.slice(0, -1) + (sig.endsWith("A") ? "B" : "A");
    for (const bad of [
      `${id}.${expires}.${flipped}`,
      `${id}.${Number(expires) + 86_400_000}.${sig}`,
      `${"A".repeat(32)}.${expires}.${sig}`,
      "nope",
      `${id}.${expires}`,
      "..%2F..%2Fetc%2Fpasswd",
      `${id}.${expires}.${sig}%00`,
    ]) {
      const res = await get(`/api/pay/download/${bad}`);
      expect(res.status, bad).toBe(404);
    }
    expect(t.deps.db.select().from(downloadGrants).get()!.uses).toBe(0);
  });

  it("thanks a tipper by e-mail without a download, and keeps the note", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const { tipId } = await sellingOwner(t, owner);
    await buy(t, tipId, { amount: "1000", note: "Keep going" });
    expect(saleRows()[0]).toMatchObject({ kind: "tip", status: "paid", amount: 1000, feeAmount: 50, note: "Keep going" });
    expect(t.deps.db.select().from(downloadGrants).all()).toHaveLength(0);
    // A receipt with the creator's thanks (ADR 239), and no download link.
    const mails = mailsTo(t.deps.env.OUTBOX_DIR, BUYER);
    expect(mails.map((m) => m.subject)).toEqual([`Your tip to @${owner.username}`]);
    expect(mails[0]!.text).not.toContain("/api/pay/download/");
  });
});

describe("Connect payment events on the webhook", () => {
  /** An open sale and its session, and the event the test provider would send when it is paid. */
  async function openSale(owner: ApiOwner) {
    const { downloadId } = await sellingOwner(t, owner);
    expect((await payForm(t, downloadId, {})).status).toBe(303);
    const sale = saleRows()[0]!;
    const event = (patch: Record<string, unknown> = {}, id = `evt_test_${Math.random().toString(36).slice(2)}`, account = sale.accountId) =>
      JSON.stringify({
        id,
        created: Date.now(),
        type: "checkout.session.completed",
        account,
        data: { object: { object: "checkout.session", id: sale.sessionId, payment_status: "paid", amount_total: 900, currency: "usd", customer_email: BUYER, payment_intent: "pi_test_1", metadata: { saleId: sale.id }, ...patch } },
      });
    return { sale, event };
  }

  it("refuses a forged or stale signature and changes nothing", async () => {
    t = createTestApp();
    const { event } = await openSale(createApiOwner(t, "plus"));
    const body = event();
    for (const headers of [{ "Content-Type": "application/json" }, signed(t, body, new Date(Date.now() - 10 * 60 * 1000)), { "Plinth-Signature": `t=${Math.floor(Date.now() / 1000)},v1=${"a".repeat(64)}` }]) {
      const res = await errorOf(await postWebhook(body, headers));
      expect(res).toEqual({ status: 400, message: BILLING_MESSAGES.webhookSignature });
    }
    expect(saleRows()[0]!.status).toBe("open");
    expect(readOutbox(t.deps.env.OUTBOX_DIR).filter((m) => m.to === BUYER)).toHaveLength(0);
  });

  it("applies a replayed payment once: one grant, one e-mail", async () => {
    t = createTestApp();
    const { event } = await openSale(createApiOwner(t, "plus"));
    const body = event({}, "evt_test_paid_once");
    const answers = await Promise.all([postWebhook(body, signed(t, body)), postWebhook(body, signed(t, body)), postWebhook(body, signed(t, body))]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    // The same payment under a new event id changes nothing either: the sale is no longer open.
    const again = event({}, "evt_test_paid_twice");
    expect((await postWebhook(again, signed(t, again))).status).toBe(200);
    expect(saleRows()[0]!.status).toBe("paid");
    expect(t.deps.db.select().from(downloadGrants).all()).toHaveLength(1);
    expect(mailsTo(t.deps.env.OUTBOX_DIR, BUYER)).toHaveLength(1);
    expect(t.deps.db.select().from(billingWebhookEvents).where(eq(billingWebhookEvents.id, "evt_test_paid_once")).all()).toHaveLength(1);
  });

  it("ignores a payment that does not match the sale the server made: another amount, currency, session or account, unpaid, or an unknown sale", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const { event } = await openSale(owner);
    const other = createApiOwner(t, "plus");
    await connectOwner(other);
    const otherAccount = t.deps.db.select().from(connectAccounts).where(eq(connectAccounts.userId, other.userId)).get()!.accountId;
    for (const body of [
      event({ amount_total: 100 }),
      event({ currency: "eur" }),
      event({ id: "cs_test_other" }),
      event({ payment_status: "unpaid" }),
      event({ metadata: { saleId: "nosuchsale" } }),
      event({}, undefined, otherAccount),
    ]) {
      expect((await postWebhook(body, signed(t, body))).status).toBe(200);
    }
    expect(saleRows()[0]!.status).toBe("open");
    expect(t.deps.db.select().from(downloadGrants).all()).toHaveLength(0);
    // Malformed: refused outright.
    for (const body of [event({ amount_total: -1 }), event({ customer_email: "<script>" }), event({ metadata: "x" })]) {
      expect((await postWebhook(body, signed(t, body))).status).toBe(400);
    }
  });

  it("records the test provider's payment event in the once-only table as it applies it", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    await boughtDownload(owner);
    const events = t.deps.db.select().from(testBillingEvents).all().filter((e) => e.type === "checkout.session.completed");
    expect(events).toHaveLength(1);
    expect(events[0]!.deliveredAt).not.toBeNull();
    expect(t.deps.db.select().from(billingWebhookEvents).where(eq(billingWebhookEvents.id, events[0]!.id)).all()).toHaveLength(1);
  });
});

describe("payment events from Stripe", () => {
  const CONNECT_SECRET = "whsec_PlinthConnectStandInSecret00";
  const deliver = async (event: object) => {
    const { payload, header } = signedDelivery(event, { secret: CONNECT_SECRET });
    return t.app.request("/api/connect/stripe/webhook", { method: "POST", body: payload, headers: { "Content-Type": "application/json", "Stripe-Signature": header } });
  };

  it("maps checkout.session.completed and charge.refunded on the connected account to the sale and its link", async () => {
    stripe = await startStripeStandIn();
    t = createTestApp({ ...STRIPE_TEST_ENV, STRIPE_API_BASE: stripe.base, STRIPE_CONNECT: "1", STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_SECRET });
    const owner = createApiOwner(t, "plus");
    await owner.call("POST", "/api/connect/onboarding");
    const accountId = [...stripe.accounts.keys()][0]!;
    stripe.accounts.set(accountId, stripeAccount({ id: accountId, email: null, onboarded: true }));
    await owner.call("GET", "/api/connect/onboarding/return");
    const file = await uploadDownload(t, owner);
    const linkId = await addLink(owner, downloadBody(file.body.id));
    await owner.call("POST", "/api/publish");
    expect((await payForm(t, linkId, {})).status).toBe(303);
    const sale = saleRows()[0]!;
    const now = Math.floor(Date.now() / 1000) - 1;
    const session = {
      id: sale.sessionId,
      object: "checkout.session",
      mode: "payment",
      payment_status: "paid",
      status: "complete",
      amount_total: 900,
      currency: "usd",
      customer_details: { email: "Buyer@Example.net", name: "Ada" },
      customer_email: null,
      payment_intent: "pi_1Stripe",
      metadata: { saleId: sale.id },
    };
    expect((await deliver({ ...stripeEvent("checkout.session.completed", session, now), account: accountId })).status).toBe(200);
    expect(saleRows()[0]).toMatchObject({ status: "paid", buyerEmail: BUYER, paymentIntentId: "pi_1Stripe" });
    const path = mailLink();
    expect((await get(path)).status).toBe(200);
    const charge = { id: "ch_1", object: "charge", payment_intent: "pi_1Stripe", refunded: true, amount_refunded: 900, amount: 900 };
    expect((await deliver({ ...stripeEvent("charge.refunded", charge, now + 1), account: accountId })).status).toBe(200);
    expect(saleRows()[0]!.status).toBe("refunded");
    expect((await get(path)).status).toBe(410);
  });
});
