import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { links, socialLinks, userProfiles } from "#db/schema.ts";
import { newId } from "#db/ids.ts";
import { publishPage } from "#renderer/publish.ts";
import { E2E } from "./env.ts";
import { createOwner, e2eDb, expect, test } from "./fixtures.ts";

const outbox = () => (existsSync(E2E.outboxDir) ? readdirSync(E2E.outboxDir).filter((f) => f.endsWith(".eml")).map((f) => readFileSync(join(E2E.outboxDir, f), "utf8")) : []);

test("a published page: dialogs, share fallback, report, lead capture, cookie banner, no third-party requests", async ({ page, context }) => {
  const owner = await createOwner({ plan: "plus" });
  const db = e2eDb();
  db.update(userProfiles).set({ displayName: "Public Tester", bio: "Hello <b>visitors</b>" }).where(eq(userProfiles.userId, owner.userId)).run();
  const add = (v: Partial<typeof links.$inferInsert>, i: number) =>
    db.insert(links).values({ id: newId(), userId: owner.userId, title: `Link ${i}`, url: "https://example.com/", orderIndex: i, ...v }).run();
  add({ title: "My Website", url: "https://example.com/site" }, 1);
  add({ title: "Section", linkType: "label", url: "#" }, 2);
  add({ title: "Free Guide", linkType: "lead_magnet", url: "#", linkSpecificData: { description: "A short guide", fileUrl: "https://files.example/guide.pdf" } }, 3);
  add({ title: "Save my contact", linkType: "vcf", url: "#", linkSpecificData: { name: "Public Tester", phone: "+15550100" } }, 4);
  add({ title: "Tip jar", linkType: "donation", url: "https://example.com/tip", linkSpecificData: { message: "Thank you!" } }, 5);
  db.insert(socialLinks).values({ id: newId(), userId: owner.userId, platform: "github", url: "https://github.com/plinth", displayOrder: 1 }).run();
  const res = publishPage(db, owner.userId, { publishedDir: E2E.publishedDir, origin: E2E.origin, apiOrigin: E2E.origin, now: new Date() });
  expect(res.ok).toBe(true);

  const foreign: string[] = [];
  page.on("request", (r) => {
    if (!r.url().startsWith(E2E.origin) && !r.url().startsWith("data:")) foreign.push(r.url());
  });
  await context.addInitScript(() => {
    Object.defineProperty(navigator, "share", { value: undefined });
    Object.defineProperty(navigator, "clipboard", { value: { writeText: () => Promise.reject(new Error("denied")) } });
  });
  await page.goto(`/${owner.username}`);
  await expect(page.getByRole("heading", { level: 1, name: "Public Tester" })).toBeVisible();
  await expect(page.getByText("Hello <b>visitors</b>")).toBeVisible();
  await expect(page.getByRole("link", { name: "My Website" })).toHaveAttribute("href", "https://example.com/site");
  await expect(page.getByText("Thank you!")).toBeVisible();
  await expect(page.getByRole("link", { name: "GitHub" })).toBeVisible();

  // Cookie banner
  const banner = page.getByRole("region", { name: "Cookie consent" });
  await expect(banner).toBeVisible();
  await banner.getByRole("button", { name: "Accept All" }).click();
  await expect(banner).toBeHidden();
  await page.getByRole("button", { name: "Cookie Settings" }).click();
  await expect(banner.getByText("Analytics")).toBeVisible();
  await banner.getByRole("button", { name: "Save Preferences" }).click();
  await expect(banner).toBeHidden();

  // QR dialog
  await page.getByRole("button", { name: "Show QR code" }).click();
  const qr = page.getByRole("dialog", { name: "QR Code" });
  await expect(qr).toBeVisible();
  await qr.getByRole("button", { name: "Close" }).click();
  await expect(qr).toBeHidden();

  // Share fallback fails to copy
  await page.getByRole("button", { name: "Share This Page" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Copy failed" })).toBeVisible();

  // Report
  await page.getByRole("button", { name: "Report", exact: true }).click();
  const report = page.getByRole("dialog", { name: "Report this page" });
  await report.getByRole("button", { name: "Submit Report" }).click();
  await expect(report.getByText("Please select a reason")).toBeVisible();
  await report.getByLabel("Reason").selectOption("spam");
  await report.getByRole("button", { name: "Submit Report" }).click();
  await expect(report).toBeHidden();
  await expect(page.getByText("Report submitted")).toBeVisible();

  // Lead capture
  await page.getByRole("button", { name: "Free Guide" }).click();
  const lead = page.getByRole("dialog", { name: "Get your download" });
  await expect(lead.getByText("A short guide")).toBeVisible();
  await lead.getByRole("button", { name: "Send Download Link" }).click();
  await expect(lead.getByText("Please enter your email address")).toBeVisible();
  const email = `${owner.username}-fan@example.com`;
  await lead.getByLabel("Email address").fill(email);
  await lead.getByRole("button", { name: "Send Download Link" }).click();
  await expect(lead).toBeHidden();
  await expect.poll(() => outbox().some((m) => m.includes(email) && m.includes("https://files.example/guide.pdf"))).toBe(true);

  expect(foreign).toEqual([]);
});
