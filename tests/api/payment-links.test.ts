/**
 * Tip and Paid download links through the links API (ADR 231): amounts in the smallest unit checked
 * by zod, the suggested amounts inside the owner's range, a download selling only the owner's own
 * private file, Plus only, and the file upload: checked by its bytes, size-limited, stored under
 * DATA_DIR/downloads and never under published/.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PAYMENT_MESSAGES, PAYMENTS } from "#core/payments.ts";
import { downloadFiles, links } from "#db/schema.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";
import { addLink, downloadBody, PDF, tipBody, uploadDownload } from "#tests/support/payments.ts";

let t: TestApp;
let owner: ApiOwner;
beforeEach(() => {
  t = createTestApp();
  owner = createApiOwner(t, "plus");
});
afterEach(() => t.close());

const linkRow = (id: string) => t.deps.db.select().from(links).where(eq(links.id, id)).get()!;
const post = async (who: ApiOwner, body: unknown) => {
  const res = await who.call("POST", "/api/links", body);
  return { status: res.status, body: (await res.json()) as any };
};
const filesIn = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String).filter((f) => /\.\w+$/.test(f)) : []);

describe("Tip links", () => {
  it("stores the settings as the page reads them: amounts in cents, the range, the currency and the thank-you", async () => {
    const id = await addLink(owner, tipBody());
    const row = linkRow(id);
    expect(row).toMatchObject({ linkType: "tip", url: "#" });
    expect(row.linkSpecificData).toEqual({ currency: "usd", amounts: "300,500,1000", custom: "on", min: "100", max: "20000", message: "Thank you!" });
    // Only "choose an amount", with the default range.
    const own = await addLink(owner, tipBody({ amounts: [], custom: "on", min: undefined, max: undefined }));
    expect(linkRow(own).linkSpecificData).toMatchObject({ amounts: "", custom: "on", min: String(PAYMENTS.MIN_AMOUNT), max: String(PAYMENTS.MAX_AMOUNT) });
  });

  it("refuses amounts that are not whole cents, out of range, too many, outside the owner's range, and a missing currency", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ amounts: [300, 500, 1000, 2000] }, "data.amounts", PAYMENT_MESSAGES.tooManyAmounts],
      [{ amounts: [99] }, "data.amounts", PAYMENT_MESSAGES.amountTooSmall],
      [{ amounts: [2.5] }, "data.amounts", PAYMENT_MESSAGES.amountInvalid],
      [{ amounts: [PAYMENTS.MAX_AMOUNT + 1] }, "data.amounts", PAYMENT_MESSAGES.amountTooLarge],
      [{ amounts: ["<script>"] }, "data.amounts", PAYMENT_MESSAGES.amountInvalid],
      [{ amounts: [300], min: 500, max: 1000 }, "data.amounts", PAYMENT_MESSAGES.amountOutsideRange],
      [{ min: 5000, max: 1000, amounts: [] }, "data.min", PAYMENT_MESSAGES.minAboveMax],
      [{ amounts: [], custom: "off" }, "data.amounts", PAYMENT_MESSAGES.amountsRequired],
      [{ currency: "btc" }, "data.currency", PAYMENT_MESSAGES.currencyInvalid],
      [{ currency: undefined }, "data.currency", PAYMENT_MESSAGES.currencyInvalid],
      [{ min: -1 }, "data.min", PAYMENT_MESSAGES.amountTooSmall],
      [{ max: "1e9" }, "data.max", PAYMENT_MESSAGES.amountInvalid],
      [{ message: "x".repeat(PAYMENTS.THANK_YOU_MAX + 1) }, "data.message", "This field is too long"],
    ];
    for (const [data, field, message] of cases) {
      const res = await post(owner, tipBody(data));
      expect(res.status, JSON.stringify(data)).toBe(400);
      // An array's element is named by its index (data.amounts.0).
      const named = Object.entries(res.body.error.fields ?? {}).filter(([k]) => k === field || k.startsWith(`${field}.`));
      expect(named.map(([, v]) => v), JSON.stringify(res.body)).toContain(message);
    }
    expect(t.deps.db.select().from(links).where(eq(links.userId, owner.userId)).all()).toHaveLength(0);
  });

  it("is a Plus link: a Lite owner gets the upgrade answer and nothing is stored", async () => {
    const lite = createApiOwner(t, "lite");
    const res = await post(lite, tipBody());
    expect(res.status).toBe(402);
    expect(res.body.error.details).toMatchObject({ feature: "tip" });
    expect(t.deps.db.select().from(links).where(eq(links.userId, lite.userId)).all()).toHaveLength(0);
  });
});

describe("Paid download links and their files", () => {
  it("stores an uploaded PDF byte for byte in DATA_DIR/downloads, never under published/, and the link keeps its id and name", async () => {
    const up = await uploadDownload(t, owner, PDF, "My Guide.pdf");
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({ name: "My Guide.pdf", bytes: PDF.length, contentType: "application/pdf" });
    const row = t.deps.db.select().from(downloadFiles).where(eq(downloadFiles.id, up.body.id)).get()!;
    expect(row.storageKey).toMatch(/^[0-9a-f]{32}\.pdf$/);
    const stored = join(t.deps.env.DATA_DIR, "downloads", row.storageKey);
    expect(readFileSync(stored).equals(PDF)).toBe(true);
    expect(filesIn(t.deps.env.PUBLISHED_DIR)).toEqual([]);

    const id = await addLink(owner, downloadBody(up.body.id));
    expect(linkRow(id).linkSpecificData).toEqual({ currency: "usd", price: "900", file: up.body.id, fileName: "My Guide.pdf", description: "Forty pages", message: "Enjoy it" });
  });

  it("sells only the owner's own file: another owner's id or a made-up one is refused", async () => {
    const other = createApiOwner(t, "plus");
    const theirs = await uploadDownload(t, other);
    for (const file of [theirs.body.id, "abcdefgh12345678"]) {
      const res = await post(owner, downloadBody(file));
      expect(res.status).toBe(400);
      expect(res.body.error.fields["data.file"]).toBe(PAYMENT_MESSAGES.fileUnknown);
    }
    const bad = await post(owner, downloadBody("../../etc/passwd"));
    expect(bad.body.error.fields["data.file"]).toBe(PAYMENT_MESSAGES.fileRequired);
    const noPrice = await post(owner, downloadBody(theirs.body.id, { price: undefined }));
    expect(noPrice.body.error.fields["data.price"]).toBe(PAYMENT_MESSAGES.priceRequired);
    const cover = await post(owner, downloadBody(theirs.body.id, { cover: "javascript:alert(1)" }));
    expect(cover.status).toBe(400);
    expect(t.deps.db.select().from(links).where(eq(links.userId, owner.userId)).all()).toHaveLength(0);
  });

  it("refuses a file that is not a PDF, ZIP, MP3 or image by its bytes, one over the limit, a Lite owner's and a signed-out upload, storing nothing", async () => {
    const html = await uploadDownload(t, owner, "<html><script>alert(1)</script></html>", "guide.pdf");
    expect(html.status).toBe(415);
    expect(html.body.error.details.description).toBe(PAYMENT_MESSAGES.downloadInvalidType);
    const over = Buffer.concat([PDF.subarray(0, 9), Buffer.alloc(PAYMENTS.DOWNLOAD_MAX_BYTES + 1 - PDF.length, 0x20), PDF.subarray(9)]);
    const big = await uploadDownload(t, owner, over);
    expect(big.status).toBe(413);
    expect(big.body.error.details.description).toBe(PAYMENT_MESSAGES.downloadTooLarge);
    const lite = createApiOwner(t, "lite");
    expect((await uploadDownload(t, lite)).status).toBe(402);
    expect((await uploadDownload(t, null)).status).toBe(401);
    expect(t.deps.db.select().from(downloadFiles).all()).toEqual([]);
    expect(filesIn(join(t.deps.env.DATA_DIR, "downloads"))).toEqual([]);
  });
});
