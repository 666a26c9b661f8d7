/**
 * Cash payouts in the operator's console (ADR 106): the queue shows what the admin needs to pay, mark
 * paid asks for the reference, reject asks for a reason and returns the amount exactly once, the owner
 * is e-mailed and sees the status, every decision is recorded, and two admins deciding at once get one
 * result.
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADMIN_TEXTS } from "#core/admin.ts";
import { TEXT_MESSAGES } from "#core/text-rule.ts";
import { adminAuditLog, payoutRequests } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { eligibleOwner, profileOf, requestKey } from "#tests/support/billing.ts";
import { lastMailTo } from "#tests/support/mail.ts";
import { createApiAdmin, turnOnTwoFactor } from "#tests/support/admin.ts";

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const admin = () => createApiAdmin(t);
const json = async (r: Promise<Response>) => {
  const res = await r;
  return { status: res.status, body: (await res.json()) as any };
};

async function requested(amount = 25, balanceCents = 5000) {
  const owner = await eligibleOwner(t, balanceCents);
  const res = await json(owner.call("POST", "/api/affiliate/payouts", { amount, payoutEmail: "me@paypal.example", requestKey: requestKey() }));
  expect(res.status).toBe(201);
  return { owner, id: res.body.payout.id as string };
}

describe("the payout queue", () => {
  it("lists pending requests with amount, fee, net, PayPal e-mail, eligibility when asked and the balance history", async () => {
    const a = admin();
    const { owner, id } = await requested(25, 5000);
    const list = await json(a.call("GET", "/api/admin/payouts"));
    expect(list.status).toBe(200);
    expect(list.body.payouts).toEqual([
      expect.objectContaining({
        id,
        username: owner.username,
        accountEmail: `${owner.username}@example.com`,
        requestedAmountCents: 2500,
        processingFeeCents: 75,
        netAmountCents: 2425,
        payoutEmail: "me@paypal.example",
        status: "pending",
        eligibilityAtRequest: expect.objectContaining({ isEligible: true, eligibleAmountCents: 5000 }),
        balanceCents: 2500,
      }),
    ]);
    const one = await json(a.call("GET", `/api/admin/payouts/${id}`));
    expect(one.body.payout.history).toEqual([expect.objectContaining({ kind: "payout", cents: -2500, note: "Cash payout to me@paypal.example" })]);
    expect((await json(a.call("GET", "/api/admin/payouts?status=decided"))).body.payouts).toEqual([]);
    expect((await a.call("GET", "/api/admin/payouts/no-such-id")).status).toBe(404);
    expect((await a.call("GET", "/api/admin/payouts/%3Cscript%3E")).status).toBe(404);
    expect((await json(a.call("GET", "/api/admin/payouts?status=all"))).status).toBe(400);
  });
});

describe("deciding", () => {
  it("mark paid: asks for the reference, e-mails the owner, shows Completed to the owner, records who and what", async () => {
    const a = admin();
    const { owner, id } = await requested();
    expect(await json(a.call("POST", `/api/admin/payouts/${id}/decision`, { decision: "paid" }))).toMatchObject({ status: 400, body: { error: { message: ADMIN_TEXTS.referenceRequired } } });
    expect(await json(a.call("POST", `/api/admin/payouts/${id}/decision`, { decision: "paid", reference: "   " }))).toMatchObject({ status: 400, body: { error: { message: ADMIN_TEXTS.referenceRequired } } });
    expect(await json(a.call("POST", `/api/admin/payouts/${id}/decision`, { decision: "paid", reference: "a\nb" }))).toMatchObject({ status: 400, body: { error: { message: TEXT_MESSAGES.oneLine } } });
    expect(await json(a.call("POST", `/api/admin/payouts/${id}/decision`, { decision: "paid", reference: "x".repeat(201) }))).toMatchObject({ status: 400, body: { error: { message: ADMIN_TEXTS.referenceTooLong } } });
    expect((await json(a.call("POST", `/api/admin/payouts/${id}/decision`, { decision: "refund" }))).status).toBe(400);
    expect((await json(a.call("POST", `/api/admin/payouts/${id}/decision`, "not json"))).status).toBe(400);
    expect(t.deps.db.select().from(payoutRequests).where(eq(payoutRequests.id, id)).get()!.status).toBe("pending");

    const paid = await json(a.call("POST", `/api/admin/payouts/${id}/decision`, { decision: "paid", reference: "PAYPAL-7XK2" }));
    expect(paid).toMatchObject({ status: 200, body: { payout: { status: "completed", paymentReference: "PAYPAL-7XK2", balanceCents: 2500 } } });
    expect(profileOf(t, owner.userId).rewardsBalanceCents).toBe(2500);
    const mail = lastMailTo(t.deps.env.OUTBOX_DIR, `${owner.username}@example.com`)!;
    expect(mail.subject).toBe("Your payout has been sent");
    expect(mail.text).toContain("Payment reference: PAYPAL-7XK2");
    expect((await json(owner.call("GET", "/api/affiliate/payouts"))).body.payouts[0]).toMatchObject({ id, status: "completed" });
    const [entry] = t.deps.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, id)).all();
    expect(entry).toMatchObject({ actorId: a.userId, actor: `${a.username}@example.com`, action: "payout.paid" });
    expect(JSON.parse(entry!.before)).toEqual({ status: "pending", balanceCents: 2500 });
    expect(JSON.parse(entry!.after)).toEqual({ status: "completed", paymentReference: "PAYPAL-7XK2", balanceCents: 2500 });
    // Decided once: a second decision of either kind is refused and changes nothing.
    expect(await json(a.call("POST", `/api/admin/payouts/${id}/decision`, { decision: "rejected", reason: "Oops" }))).toMatchObject({ status: 409, body: { error: { message: ADMIN_TEXTS.payoutDecided } } });
    expect(profileOf(t, owner.userId).rewardsBalanceCents).toBe(2500);
  });

  it("reject: asks for a reason, returns the amount to the balance exactly once, e-mails the owner with the reason", async () => {
    const a = admin();
    const { owner, id } = await requested(25, 5000);
    expect(await json(a.call("POST", `/api/admin/payouts/${id}/decision`, { decision: "rejected", reason: "" }))).toMatchObject({ status: 400, body: { error: { message: ADMIN_TEXTS.reasonRequired } } });
    expect(await json(a.call("POST", `/api/admin/payouts/${id}/decision`, { decision: "rejected", reason: "x".repeat(1001) }))).toMatchObject({ status: 400, body: { error: { message: ADMIN_TEXTS.reasonTooLong } } });
    expect(await json(a.call("POST", `/api/admin/payouts/${id}/decision`, { decision: "rejected", reason: "bad\u0000" }))).toMatchObject({ status: 400, body: { error: { message: TEXT_MESSAGES.invisible } } });

    const reason = "The PayPal account does not accept payments.\nPlease check it and ask again.";
    const res = await json(a.call("POST", `/api/admin/payouts/${id}/decision`, { decision: "rejected", reason: `  ${reason}\r\n` }));
    expect(res).toMatchObject({ status: 200, body: { payout: { status: "rejected", rejectionReason: reason, balanceCents: 5000 } } });
    expect(profileOf(t, owner.userId).rewardsBalanceCents).toBe(5000);
    const mail = lastMailTo(t.deps.env.OUTBOX_DIR, `${owner.username}@example.com`)!;
    expect(mail.subject).toBe("Your payout request was not approved");
    expect(mail.text).toContain("> The PayPal account does not accept payments.\n> Please check it and ask again.");
    expect(mail.text).toContain("Your rewards balance is now $50.00.");
    expect(await json(a.call("POST", `/api/admin/payouts/${id}/decision`, { decision: "rejected", reason: "again" }))).toMatchObject({ status: 409 });
    expect(profileOf(t, owner.userId).rewardsBalanceCents).toBe(5000);
    const history = (await json(a.call("GET", `/api/admin/payouts/${id}`))).body.payout.history as { kind: string; cents: number }[];
    expect(history.map((h) => [h.kind, h.cents]).sort()).toEqual([["payout", -2500], ["payout_returned", 2500]]);
    expect((await json(a.call("GET", "/api/admin/payouts?status=decided"))).body.payouts.map((p: { id: string }) => p.id)).toEqual([id]);
  });

  it("two admins deciding the same request at once: one result, the balance returned at most once", async () => {
    const one = admin();
    const two = admin();
    for (let round = 0; round < 5; round++) {
      const { owner, id } = await requested(25, 5000);
      const answers = await Promise.all([
        json(one.call("POST", `/api/admin/payouts/${id}/decision`, { decision: "rejected", reason: "Duplicate" })),
        json(two.call("POST", `/api/admin/payouts/${id}/decision`, { decision: "rejected", reason: "Duplicate" })),
        json(two.call("POST", `/api/admin/payouts/${id}/decision`, { decision: "paid", reference: "REF" })),
      ]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409]);
      const winner = answers.find((r) => r.status === 200)!.body.payout.status as string;
      expect(profileOf(t, owner.userId).rewardsBalanceCents).toBe(winner === "rejected" ? 5000 : 2500);
      expect(t.deps.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, id)).all()).toHaveLength(1);
    }
  });

  it("an owner, even with two-factor, cannot see or decide payouts", async () => {
    const { owner, id } = await requested();
    turnOnTwoFactor(t, owner.userId);
    expect((await owner.call("GET", "/api/admin/payouts")).status).toBe(404);
    expect((await owner.call("POST", `/api/admin/payouts/${id}/decision`, { decision: "rejected", reason: "mine" })).status).toBe(404);
    expect(profileOf(t, owner.userId).rewardsBalanceCents).toBe(2500);
  });
});
