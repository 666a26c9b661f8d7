/**
 * What a paid tip or sale sends (ADR 239): the owner's notice of each (amount, fee, what is theirs,
 * the visitor's note) and the tipper's receipt with the creator's thanks, each once even when the
 * provider's event reaches two processes at once; none to a buyer whose e-mail is unknown. And a
 * partial refund: recorded as refunded so far (never less, whatever order events come in), shown in
 * the owner's sales and CSV with the net, the buyer's link still working; a whole refund revokes it.
 */
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { closeDatabase, openDatabase } from "#db/client.ts";
import { sales } from "#db/schema.ts";
import { createServerApp } from "#api/site.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { mailsTo } from "#tests/support/mail.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";
import { addLink, BUYER, buy, downloadBody, payForm, sellingOwner, tipBody, uploadDownload } from "#tests/support/payments.ts";
import { signedDelivery, startStripeStandIn, stripeAccount, stripeEvent, STRIPE_TEST_ENV, type StripeStandIn } from "#tests/support/stripe.ts";

let t: TestApp;
let stripe: StripeStandIn | undefined;
afterEach(async () => {
  await t.close();
  await stripe?.close();
  stripe = undefined;
});

const ownerEmail = (o: ApiOwner) => `${o.username}@example.com`;

describe("the mails of a tip and a sale, with the test provider", () => {
  it("tell the owner of each, with the fee, what is theirs and the visitor's note, and thank the tipper with the creator's message", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const { tipId, downloadId } = await sellingOwner(t, owner);
    await buy(t, tipId, { amount: "custom", custom: "12.34", note: "Loved the\nlast video", private: "on" }, "tipper@example.net");
    await buy(t, downloadId, {});

    const notices = mailsTo(t.deps.env.OUTBOX_DIR, ownerEmail(owner));
    expect(notices.map((m) => m.subject)).toEqual(["New tip: $12.34 for Buy me a coffee", "New sale: The guide ($9.00)"]);
    expect(notices[0]!.text).toContain("You received a tip of $12.34 through your page:");
    expect(notices[0]!.text).toContain("Plinth's fee: $0.62. Yours: $11.72 (before Stripe's processing fee).");
    expect(notices[0]!.text).toContain("From: tipper@example.net");
    expect(notices[0]!.text).toContain("Their note (only you see it):\n> Loved the\n> last video");
    expect(notices[0]!.text).toContain("See all your sales: http://localhost:4321/dashboard/earnings");
    expect(notices[1]!.text).toContain("Buyer: buyer@example.net");

    const receipt = mailsTo(t.deps.env.OUTBOX_DIR, "tipper@example.net");
    expect(receipt).toHaveLength(1);
    expect(receipt[0]!.subject).toBe(`Your tip to @${owner.username}`);
    expect(receipt[0]!.text).toContain(`Thank you for your tip of $12.34 to @${owner.username}.`);
    expect(receipt[0]!.text).toContain(`A message from @${owner.username}:\n> Thank you!`);
  });
});

describe("with Stripe's Connect webhook", () => {
  const CONNECT_SECRET = "whsec_PlinthConnectStandInSecret00";
  const send = (app: TestApp["app"], event: object) => {
    const { payload, header } = signedDelivery(event, { secret: CONNECT_SECRET });
    return app.request("/api/connect/stripe/webhook", { method: "POST", body: payload, headers: { "Content-Type": "application/json", "Stripe-Signature": header } });
  };

  /** A Stripe-connected owner selling a download, an open sale, and the completed session's event. */
  async function openDownloadSale(email: string | null) {
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
    const sale = t.deps.db.select().from(sales).get()!;
    const now = Math.floor(Date.now() / 1000) - 10;
    const session = { id: sale.sessionId, object: "checkout.session", mode: "payment", payment_status: "paid", status: "complete", amount_total: 900, currency: "usd", customer_details: email ? { email, name: "Ada" } : null, customer_email: null, payment_intent: "pi_1Stripe", metadata: { saleId: sale.id } };
    const completed = { ...stripeEvent("checkout.session.completed", session, now), account: accountId };
    const charge = (refunded: boolean, amount_refunded: number, at: number) => ({ ...stripeEvent("charge.refunded", { id: "ch_1", object: "charge", payment_intent: "pi_1Stripe", refunded, amount_refunded, amount: 900 }, now + at), account: accountId });
    return { owner, completed, charge, saleId: sale.id };
  }

  it("send each mail once when the same event reaches two processes at once", async () => {
    const { owner, completed } = await openDownloadSale(BUYER);
    // A second server process on the same data folder: its own connection to the database.
    const db2 = openDatabase({ path: t.deps.env.DATABASE_PATH });
    try {
      const second = createServerApp({ ...t.deps, db: db2 });
      const answers = await Promise.all([send(t.app, completed), send(second, completed), send(t.app, completed)]);
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    } finally {
      closeDatabase(db2);
    }
    expect(mailsTo(t.deps.env.OUTBOX_DIR, ownerEmail(owner))).toHaveLength(1);
    expect(mailsTo(t.deps.env.OUTBOX_DIR, BUYER)).toHaveLength(1);
  });

  it("tell the owner of a sale whose buyer's e-mail is unknown, and send the buyer nothing", async () => {
    const { owner, completed } = await openDownloadSale(null);
    expect((await send(t.app, completed)).status).toBe(200);
    const notice = mailsTo(t.deps.env.OUTBOX_DIR, ownerEmail(owner));
    expect(notice).toHaveLength(1);
    expect(notice[0]!.text).not.toContain("Buyer:");
    expect(t.outbox()).toHaveLength(1);
  });

  it("record a partial refund, keep the buyer's link working, show it in the sales and CSV; a whole refund revokes the link", async () => {
    const { owner, completed, charge, saleId } = await openDownloadSale(BUYER);
    expect((await send(t.app, completed)).status).toBe(200);
    const link = /http:\/\/localhost:4321(\/api\/pay\/download\/\S+)/.exec(mailsTo(t.deps.env.OUTBOX_DIR, BUYER)[0]!.text)![1]!;
    const row = () => t.deps.db.select().from(sales).where(eq(sales.id, saleId)).get()!;

    expect((await send(t.app, charge(false, 300, 2))).status).toBe(200);
    // An older event, arriving late, does not lower what was refunded.
    expect((await send(t.app, charge(false, 100, 1))).status).toBe(200);
    expect(row()).toMatchObject({ status: "paid", refundedAmount: 300 });
    expect((await t.app.request(link)).status).toBe(200);
    const list = ((await (await owner.call("GET", "/api/payments/sales")).json()) as any).sales;
    expect(list[0]).toMatchObject({ status: "paid", amount: 900, fee: 45, refunded: 300, net: 555 });
    const csv = (await (await owner.call("GET", "/api/payments/sales.csv")).text()).trim().split("\r\n");
    expect(csv[1]).toContain(`"9.00","0.45","3.00","5.55","USD","buyer@example.net","Partly refunded"`);

    expect((await send(t.app, charge(true, 900, 3))).status).toBe(200);
    expect(row()).toMatchObject({ status: "refunded", refundedAmount: 900 });
    expect((await t.app.request(link)).status).toBe(410);
    const after = (await (await owner.call("GET", "/api/payments/sales.csv")).text()).trim().split("\r\n");
    expect(after[1]).toContain(`"9.00","0.45","9.00",-0.45,"USD","buyer@example.net","Refunded"`);
  });
});
