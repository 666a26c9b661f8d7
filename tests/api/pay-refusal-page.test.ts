/**
 * The page's tip and download buttons are plain form posts (ADR 231), so a refused checkout answered
 * to a browser (Accept: text/html) is a readable page with the product's message and a link back to
 * the creator's page; an API client still gets JSON. A buyer's download link that no longer works,
 * opened from the e-mail, reads the same way (ADR 237).
 */
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { PAYMENT_MESSAGES } from "#core/payments.ts";
import { sales, userProfiles } from "#db/schema.ts";
import { PAY_RATE_LIMITED } from "#api/routes/pay.ts";
import { CHECKOUT_REFUSALS, refusalPage } from "#api/routes/pay-refusal.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { clockedApp } from "#tests/support/billing.ts";
import { mailsTo } from "#tests/support/mail.ts";
import { createApiOwner } from "#tests/support/owner.ts";
import { BUYER, buy, payForm, sellingOwner } from "#tests/support/payments.ts";

let t: TestApp;
afterEach(async () => {
  await t.close();
});

const BROWSER = { Accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

async function page(res: Response) {
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  const csp = res.headers.get("content-security-policy")!;
  expect(csp).toContain("default-src 'none'");
  expect(csp).not.toContain("unsafe-inline");
  return { status: res.status, html: await res.text() };
}

describe("a refused checkout answered to a form post", () => {
  it("is a page with the amount's message and a link back to the creator's page; JSON for an API client", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const { tipId } = await sellingOwner(t, owner);
    const { status, html } = await page(await payForm(t, tipId, { amount: "custom", custom: "0.50" }, BROWSER));
    expect(status).toBe(400);
    expect(html).toContain("<h1>Please check the amount</h1>");
    expect(html).toContain(`<p>${PAYMENT_MESSAGES.amountTooSmall}</p>`);
    expect(html).toContain(`<a href="http://localhost:4321/${owner.username}">Back to the page</a>`);
    const api = await payForm(t, tipId, { amount: "custom", custom: "0.50" }, { Accept: "application/json" });
    expect(api.headers.get("content-type")).toMatch(/^application\/json/);
    expect(((await api.json()) as any).error.message).toBe(PAYMENT_MESSAGES.amountTooSmall);
    expect(t.deps.db.select().from(sales).all()).toHaveLength(0);
  });

  it("says a suspended page takes no payments (410)", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const { tipId } = await sellingOwner(t, owner);
    t.deps.db.update(userProfiles).set({ pageSuspendedAt: new Date() }).where(eq(userProfiles.userId, owner.userId)).run();
    const { status, html } = await page(await payForm(t, tipId, { amount: "500" }, BROWSER));
    expect(status).toBe(410);
    expect(html).toContain("<h1>Payments are not available</h1>");
    expect(html).toContain(PAYMENT_MESSAGES.notAvailable);
  });

  it("says to wait when the visitor is rate limited (429), and names no page for an unknown link (404)", async () => {
    const clocked = clockedApp("2026-11-28T10:00:00Z");
    t = clocked.t;
    const owner = createApiOwner(t, "plus");
    const { tipId } = await sellingOwner(t, owner);
    for (let i = 0; i < 20; i++) expect((await payForm(t, tipId, { amount: "300" })).status).toBe(303);
    const limited = await page(await payForm(t, tipId, { amount: "300" }, BROWSER));
    expect(limited.status).toBe(429);
    expect(limited.html).toContain(PAY_RATE_LIMITED);
    clocked.setClock("2026-11-28T10:00:06Z");
    const unknown = await page(await payForm(t, "no-such-link", { amount: "300" }, BROWSER));
    expect(unknown.status).toBe(404);
    expect(unknown.html).toContain("Go back to the page and try again.");
    expect(unknown.html).not.toContain("<a ");
  });

  it("answers an oversized form with a page too, never a 500", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "plus");
    const { tipId } = await sellingOwner(t, owner);
    const { status, html } = await page(await payForm(t, tipId, { amount: "500", note: "x".repeat(5000) }, BROWSER));
    expect(status).toBe(413);
    expect(html).toContain("Request too large");
  });

  it("escapes the message and links back only to an http(s) address", () => {
    const html = refusalPage(CHECKOUT_REFUSALS, 400, `<script>alert(1)</script>"`, "javascript:alert(1)");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;&quot;");
    expect(html).not.toContain("javascript:");
  });
});

describe("a download link that no longer works, opened in a browser", () => {
  it("is a page saying it expired, by the app's clock", async () => {
    const clocked = clockedApp("2026-11-28T10:00:00Z");
    t = clocked.t;
    const owner = createApiOwner(t, "plus");
    const { downloadId } = await sellingOwner(t, owner);
    await buy(t, downloadId, {});
    const path = /http:\/\/localhost:4321(\/api\/pay\/download\/\S+)/.exec(mailsTo(t.deps.env.OUTBOX_DIR, BUYER).at(-1)!.text)![1]!;
    clocked.setClock("2026-12-01T10:00:00Z");
    const { status, html } = await page(await t.app.request(path, { headers: BROWSER }));
    expect(status).toBe(410);
    expect(html).toContain("<h1>Download not available</h1>");
    expect(html).toContain(PAYMENT_MESSAGES.linkExpired);
    expect((await t.app.request(path)).headers.get("content-type")).toMatch(/^application\/json/);
  });
});
