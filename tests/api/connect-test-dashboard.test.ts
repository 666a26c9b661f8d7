/**
 * The test provider's Express dashboard stand-in (ADR 237): the account's payments, newest first,
 * to its own owner only (another owner's account reads as unknown), and its Refund button's whole
 * refund, after which the payment shows refunded and cannot be refunded again.
 */
import { afterEach, describe, expect, it } from "vitest";
import { CONNECT_MESSAGES } from "#core/connect.ts";
import { connectAccounts } from "#db/schema.ts";
import { eq } from "drizzle-orm";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { createApiOwner } from "#tests/support/owner.ts";
import { BUYER, buy, sellingOwner } from "#tests/support/payments.ts";

let t: TestApp;
afterEach(() => t.close());

describe("the Express dashboard stand-in", () => {
  it("lists the account's payments to its owner, refunds one whole, and is unknown to anyone else", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const { tipId, downloadId } = await sellingOwner(t, owner);
    const tip = await buy(t, tipId, { amount: "500" }, "fan@example.net");
    await buy(t, downloadId, {});
    const accountId = t.deps.db.select().from(connectAccounts).where(eq(connectAccounts.userId, owner.userId)).get()!.accountId;

    const view = await owner.call("GET", `/api/connect/test/accounts/${accountId}`);
    expect(view.status).toBe(200);
    const body = (await view.json()) as any;
    expect(body).toMatchObject({ id: accountId, chargesEnabled: true, payoutsEnabled: true });
    expect(body.payments.map((p: any) => [p.name, p.amount, p.fee, p.buyerEmail, p.refunded])).toEqual(
      expect.arrayContaining([
        ["Buy me a coffee", 500, 25, "fan@example.net", false],
        ["The guide", 900, 45, BUYER, false],
      ]),
    );

    expect((await owner.call("POST", `/api/connect/test/sessions/${tip.sessionId}/refund`)).status).toBe(200);
    const after = (await (await owner.call("GET", `/api/connect/test/accounts/${accountId}`)).json()) as any;
    expect(after.payments.find((p: any) => p.id === tip.sessionId).refunded).toBe(true);
    const again = await owner.call("POST", `/api/connect/test/sessions/${tip.sessionId}/refund`);
    expect(again.status).toBe(409);

    const other = createApiOwner(t, "plus");
    const foreign = await other.call("GET", `/api/connect/test/accounts/${accountId}`);
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as any).error.message).toBe(CONNECT_MESSAGES.accountNotFound);
    expect((await other.call("GET", `/api/connect/test/accounts/${"x".repeat(101)}`)).status).toBe(404);
    expect((await t.app.request(`/api/connect/test/accounts/${accountId}`)).status).toBe(401);
  });

  it("gives the payment page the session's success address", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const { tipId } = await sellingOwner(t, owner);
    const { sessionId, redirectUrl } = await buy(t, tipId, { amount: "500" });
    const view = (await (await t.app.request(`/api/pay/test/sessions/${sessionId}`)).json()) as any;
    expect(view).toMatchObject({ status: "complete", successUrl: redirectUrl });
  });
});
