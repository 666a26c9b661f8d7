/**
 * Invoices as an accountant reads them (issue 23, ADR 103): one gap-free number sequence for every
 * invoice, card-paid and balance-paid alike; the seller from the operator's environment, kept on each
 * invoice as issued; net, tax and gross that add up; and the PDF download, owner-only, whose text is
 * read back.
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { billingFor } from "#api/services/billing.ts";
import { billingCustomers, invoices, userProfiles } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { eligibleOwner, endPeriodNow, profileOf, providerSubscription, requestKey, subscribe, tick } from "#tests/support/billing.ts";
import { mailsTo } from "#tests/support/mail.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";
import { pdfText } from "#tests/support/pdf.ts";

const SELLER_ENV = {
  SELLER_NAME: "Plinth Publishing Ltd",
  SELLER_ADDRESS: "1 High Street\\nLondon N1 1AA\\nUnited Kingdom",
  SELLER_TAX_ID: "GB123456789",
  TAX_RATE_PERCENT: "20",
};

let t: TestApp;
beforeEach(() => {
  t = createTestApp(SELLER_ENV);
});
afterEach(() => t.close());

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const invoicesOf = (o: ApiOwner) => t.deps.db.select().from(invoices).where(eq(invoices.userId, o.userId)).orderBy(invoices.createdAt).all();
const allNumbers = () => t.deps.db.select({ n: invoices.number }).from(invoices).all().map((r) => r.n).sort();

describe("one gap-free numbering sequence", () => {
  it("checkouts, renewals and balance-paid months of different owners all take the next PLN number", async () => {
    const a = await eligibleOwner(t, 5000);
    const b = createApiOwner(t, "lite");
    await subscribe(b);
    endPeriodNow(t.deps.db, providerSubscription(t, a.userId).id);
    await tick(t);
    const renewal = await json(await a.call("POST", "/api/affiliate/renewals", { months: 2, totalCost: 17.98, requestKey: requestKey() }));
    expect(renewal.status).toBe(201);
    expect(allNumbers()).toEqual(["PLN-000001", "PLN-000002", "PLN-000003", "PLN-000004"]);
    const balancePaid = invoicesOf(a).find((i) => i.paymentMethod === "Rewards balance")!;
    expect(balancePaid.number).toBe("PLN-000004");
    // The receipt names the invoice by the same number.
    expect(mailsTo(t.deps.env.OUTBOX_DIR, `${a.username}@example.com`).map((m) => m.subject)).toContain("Your Plinth receipt PLN-000004");
  });

  it("a balance renewal the provider refuses keeps its number as a void invoice: the sequence has no hole", async () => {
    const a = await eligibleOwner(t, 5000);
    // The subscription ended at the provider and the product has not heard yet: the renewal is refused there.
    const sub = providerSubscription(t, a.userId);
    await billingFor(t.deps).provider.cancelNow(sub.id);
    t.deps.db.update(userProfiles).set({ planType: "plus", subscriptionStatus: "active_plus", currentPeriodEndDate: new Date(Date.now() + 86_400_000) }).where(eq(userProfiles.userId, a.userId)).run();
    t.deps.db.update(billingCustomers).set({ subscriptionId: sub.id }).where(eq(billingCustomers.userId, a.userId)).run();
    const res = await a.call("POST", "/api/affiliate/renewals", { months: 1, totalCost: 8.99, requestKey: requestKey() });
    expect(res.status).toBe(409);
    expect(invoicesOf(a).map((i) => [i.number, i.status])).toEqual([
      ["PLN-000001", "paid"],
      ["PLN-000002", "void"],
    ]);
    expect(profileOf(t, a.userId).rewardsBalanceCents).toBe(5000);
    const b = createApiOwner(t, "lite");
    await subscribe(b);
    expect(allNumbers()).toEqual(["PLN-000001", "PLN-000002", "PLN-000003"]);
  });
});

describe("seller, net, tax and gross", () => {
  it("the invoice shows the seller from the environment and 8.99 as 7.49 net + 1.50 tax at 20%", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner);
    const [row] = invoicesOf(owner);
    const res = await json(await owner.call("GET", `/api/billing/invoices/${row!.id}`));
    expect(res.status).toBe(200);
    expect(res.body.seller).toEqual({ name: "Plinth Publishing Ltd", address: ["1 High Street", "London N1 1AA", "United Kingdom"], taxId: "GB123456789" });
    expect(res.body.totals).toEqual({ netCents: 749, taxCents: 150, grossCents: 899, taxRateBp: 2000 });
    expect(res.body.invoice.number).toBe("PLN-000001");
  });

  it("an issued invoice keeps the seller and rate it was issued with; one from before they were kept prints today's", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner);
    const [row] = invoicesOf(owner);
    t.deps.env.SELLER = { name: "New Name GmbH", address: ["Hauptstr. 1"], taxId: "DE999999999", taxRateBp: 1900 };
    const kept = await json(await owner.call("GET", `/api/billing/invoices/${row!.id}`));
    expect(kept.body.seller.name).toBe("Plinth Publishing Ltd");
    expect(kept.body.totals).toMatchObject({ taxRateBp: 2000, taxCents: 150 });
    t.deps.db.update(invoices).set({ sellerName: null, sellerAddress: null, sellerTaxId: null, taxRateBp: null }).where(eq(invoices.id, row!.id)).run();
    const legacy = await json(await owner.call("GET", `/api/billing/invoices/${row!.id}`));
    expect(legacy.body.seller).toEqual({ name: "New Name GmbH", address: ["Hauptstr. 1"], taxId: "DE999999999" });
    expect(legacy.body.totals).toEqual({ netCents: 755, taxCents: 144, grossCents: 899, taxRateBp: 1900 });
  });
});

describe("the PDF download", () => {
  it("is a PDF whose text carries the seller's details, the number, net, tax and gross", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner);
    const [row] = invoicesOf(owner);
    const res = await owner.call("GET", `/api/billing/invoices/${row!.id}/pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="Invoice-PLN-000001.pdf"');
    expect(res.headers.get("cache-control")).toBe("no-store");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    const [page, ...more] = await pdfText(bytes);
    expect(more).toEqual([]);
    for (const expected of [
      "Plinth Publishing Ltd",
      "1 High Street",
      "London N1 1AA",
      "United Kingdom",
      "Tax ID: GB123456789",
      "Invoice",
      "PLN-000001",
      "Paid",
      "Test mode: no money was charged.",
      `@${owner.username}`,
      `${owner.username}@example.com`,
      "Plinth Plus (monthly) $8.99",
      "Net $7.49",
      "Tax (20%) $1.50",
      "Total (USD) $8.99",
      "Amount due $0.00",
      "Paid with Visa ending in 4242.",
    ]) {
      expect(page).toContain(expected);
    }
  });

  it("another owner's invoice, an unknown id and no session get no PDF", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner);
    const [row] = invoicesOf(owner);
    const other = createApiOwner(t, "plus");
    const res = await json(await other.call("GET", `/api/billing/invoices/${row!.id}/pdf`));
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: "not_found", message: "Invoice not found" });
    expect((await owner.call("GET", "/api/billing/invoices/in_nope/pdf")).status).toBe(404);
    // An id that cannot exist is not found either (api/validate.ts: params).
    expect((await owner.call("GET", `/api/billing/invoices/${"x".repeat(101)}/pdf`)).status).toBe(404);
    expect((await t.app.request(`/api/billing/invoices/${row!.id}/pdf`)).status).toBe(401);
  });

  it("a seller name outside what the PDF font draws prints with ? in its place, never a failure", async () => {
    const owner = createApiOwner(t, "lite");
    await subscribe(owner);
    const [row] = invoicesOf(owner);
    t.deps.db.update(invoices).set({ sellerName: "Łódź 株式会社 Müller", description: "Plinth Plus (monthly) \u202e" }).where(eq(invoices.id, row!.id)).run();
    const res = await owner.call("GET", `/api/billing/invoices/${row!.id}/pdf`);
    expect(res.status).toBe(200);
    const [page] = await pdfText(new Uint8Array(await res.arrayBuffer()));
    expect(page).toContain("?ód? ???? Müller");
  });
});
