/**
 * The owner's sales (ADR 233): date, item, amount, fee, net and buyer e-mail, newest first; the CSV
 * export with formulas defused; resending a buyer's link (a fresh one; the old one stops); and no
 * owner ever sees or acts on another owner's sales.
 */
import { afterEach, describe, expect, it } from "vitest";
import { PAYMENT_MESSAGES } from "#core/payments.ts";
import { sales } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { mailsTo } from "#tests/support/mail.ts";
import { createApiOwner } from "#tests/support/owner.ts";
import { BUYER, buy, payForm, sellingOwner } from "#tests/support/payments.ts";

let t: TestApp;
afterEach(() => t.close());

/** The download links mailed to the buyer (a tip's receipt carries none). */
const linksMailed = () => mailsTo(t.deps.env.OUTBOX_DIR, BUYER).flatMap((m) => /http:\/\/localhost:4321(\/api\/pay\/download\/\S+)/.exec(m.text)?.[1] ?? []);

describe("the Sales API", () => {
  it("lists a tip and a sale with the fee taken and the net, newest first, and exports them as CSV", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const { tipId, downloadId } = await sellingOwner(t, owner);
    await buy(t, tipId, { amount: "custom", custom: "12.34", note: "=HYPERLINK(\"http://evil\")" }, "tipper@example.net");
    await buy(t, downloadId, {});
    // An abandoned checkout is not a sale.
    await payForm(t, tipId, { amount: "300" });

    const res = await owner.call("GET", "/api/payments/sales");
    const list = ((await res.json()) as any).sales;
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ kind: "download", item: "The guide", amount: 900, fee: 45, refunded: 0, net: 855, currency: "usd", buyerEmail: BUYER, status: "paid" });
    expect(list[1]).toMatchObject({ kind: "tip", item: "Buy me a coffee", amount: 1234, fee: 62, net: 1172, buyerEmail: "tipper@example.net", note: '=HYPERLINK("http://evil")' });

    const csv = await owner.call("GET", "/api/payments/sales.csv");
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toBe('attachment; filename="sales.csv"');
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe('"Date","Item","Type","Amount","Fee","Refunded","Net","Currency","Buyer email","Status","Note"');
    expect(lines[1]).toMatch(/^"[\d-]+T[\d:.]+Z","The guide","Download","9.00","0.45","0.00","8.55","USD","buyer@example.net","Paid",""$/);
    expect(lines[2]).toContain(`"12.34","0.62","0.00","11.72","USD","tipper@example.net","Paid","'=HYPERLINK(""http://evil"")"`);
  });

  it("resends a fresh link to the buyer; the old one stops working", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const { downloadId } = await sellingOwner(t, owner);
    await buy(t, downloadId, {});
    const sale = t.deps.db.select().from(sales).get()!;
    const res = await owner.call("POST", `/api/payments/sales/${sale.id}/resend`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).message).toBe(PAYMENT_MESSAGES.linkResent);
    const [first, second] = linksMailed();
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect((await t.app.request(first!)).status).toBe(404);
    expect((await t.app.request(second!)).status).toBe(200);
  });

  it("keeps each owner's sales their own: another owner's list is empty, and their resend is unknown", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const { tipId, downloadId } = await sellingOwner(t, owner);
    await buy(t, downloadId, {});
    await buy(t, tipId, { amount: "500" });
    const [download, tip] = t.deps.db.select().from(sales).all();
    const other = createApiOwner(t, "plus");
    expect(((await (await other.call("GET", "/api/payments/sales")).json()) as any).sales).toEqual([]);
    expect((await (await other.call("GET", "/api/payments/sales.csv")).text()).trim().split("\r\n")).toHaveLength(1);
    expect((await other.call("POST", `/api/payments/sales/${download!.id}/resend`)).status).toBe(404);
    expect((await owner.call("POST", `/api/payments/sales/${tip!.id}/resend`)).status).toBe(409);
    expect((await owner.call("POST", `/api/payments/sales/${"x".repeat(65)}/resend`)).status).toBe(404);
    expect(linksMailed()).toHaveLength(1);
    expect((await t.app.request("/api/payments/sales")).status).toBe(401);
  });
});
