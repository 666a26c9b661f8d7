/**
 * Every dialog, menu and popover an owner or a visitor opens has no axe violations (WCAG 2.2 A and
 * AA) while it is open, at desktop and phone sizes: the dashboard's editors, confirms, crop, range
 * and export, account and affiliate dialogs, and the public page's lead, contact card and picture
 * dialogs. accessibility.spec.ts covers the screens themselves and the dialogs every screen shares.
 */
import type { Locator, Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { newId } from "#db/ids.ts";
import { links, userProfiles } from "#db/schema.ts";
import { recordEvents } from "#api/services/analytics-store.ts";
import { publishPage } from "#renderer/publish.ts";
import { expectNoAxeViolations } from "./axe.ts";
import { E2E } from "./env.ts";
import { createOwner, e2eDb, expect, signInAs, test } from "./fixtures.ts";

const SIZES = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

/** Opens what `open` opens, finds it as `opened`, checks it with axe, and closes it with Escape. */
async function checkOpen(page: Page, what: string, open: () => Promise<unknown>, opened: Locator) {
  await open();
  await expect(opened).toBeVisible();
  await expectNoAxeViolations(page, what);
  await page.keyboard.press("Escape");
  await expect(opened).toBeHidden();
}

async function post(page: Page, path: string, body: unknown) {
  const status = await page.evaluate(
    async ([p, b]) => (await fetch(p as string, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(b) })).status,
    [path, body] as const,
  );
  expect(status, `POST ${path}`).toBe(201);
}

for (const size of SIZES) {
  test.describe(`${size.name} ${size.width}x${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });
    test.setTimeout(180_000);

    test("the dashboard's dialogs, menus and popovers have no axe violations", async ({ page, owner }) => {
      recordEvents(e2eDb(), [{ userId: owner.userId, kind: "page_view", device: "mobile", referrerDomain: "instagram.com", occurredAt: new Date() }]);

      await page.goto("/dashboard/links");
      await expect(page.getByRole("heading", { name: "Page Layout" })).toBeVisible();
      await post(page, "/api/links", { linkType: "standard_url", title: "Axe link", url: "https://example.com/axe" });
      await page.reload();
      const row = page.getByTestId("link-row").filter({ hasText: "Axe link" });
      await expect(row).toBeVisible();
      await checkOpen(page, "the link row's menu", () => row.getByRole("button", { name: "Actions for Axe link" }).click(), page.getByRole("menu"));
      await checkOpen(
        page,
        "Edit Link",
        async () => {
          await row.getByRole("button", { name: "Actions for Axe link" }).click();
          await page.getByRole("menuitem", { name: "Edit" }).click();
        },
        page.getByRole("dialog", { name: "Edit Link" }),
      );
      await checkOpen(page, "Delete Link", async () => {
        await row.getByRole("button", { name: "Actions for Axe link" }).click();
        await page.getByRole("menuitem", { name: "Delete" }).click();
      }, page.getByRole("alertdialog", { name: "Delete Link" }));
      await checkOpen(page, "Publish Changes", () => page.getByRole("button", { name: "Publish", exact: true }).click(), page.getByRole("alertdialog", { name: "Publish Changes" }));
      await checkOpen(page, "Cancel Draft Changes", () => page.getByRole("button", { name: "Discard Changes" }).click(), page.getByRole("alertdialog", { name: "Cancel Draft Changes" }));

      await page.goto("/dashboard/social-links");
      await expect(page.getByRole("heading", { name: "Social Links", level: 1 })).toBeVisible();
      await checkOpen(page, "Add Instagram Link", () => page.getByRole("button", { name: "Instagram", exact: true }).click(), page.getByRole("dialog", { name: "Add Instagram Link" }));

      await page.goto("/dashboard/profile-picture");
      await expect(page.getByRole("heading", { name: "Profile Picture", level: 1 })).toBeVisible();
      const photo = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#336699" } }).png().toBuffer();
      const choose = () => page.getByLabel("Choose File").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: photo });
      const crop = page.getByRole("dialog", { name: "Crop Your Profile Picture" });
      await checkOpen(page, "Crop Your Profile Picture", choose, crop);
      await choose();
      await crop.getByRole("button", { name: "Save", exact: true }).click();
      await expect(crop).toBeHidden();
      // A success toast's text keeps 4.5:1 on its tinted background.
      await expect(page.getByText("Profile picture updated")).toBeVisible();
      await expectNoAxeViolations(page, "the success toast");
      // Gone before the next scan: a toast fading out during it would be measured as a blend.
      await expect(page.getByText("Profile picture updated")).toBeHidden();
      await checkOpen(page, "the enlarged picture", () => page.getByRole("button", { name: "Enlarge your profile picture" }).click(), page.getByRole("dialog", { name: "Profile picture" }));

      await page.goto("/dashboard/analytics");
      await expect(page.getByText("Page Views", { exact: true })).toBeVisible();
      await checkOpen(page, "the date range", () => page.getByRole("button", { name: /Date range/ }).click(), page.getByRole("dialog"));
      await checkOpen(page, "the export menu", () => page.getByRole("button", { name: "Export" }).click(), page.getByRole("menu"));

      await page.goto("/dashboard/affiliate");
      await page.getByRole("tab", { name: "Detailed Earnings" }).click();
      await checkOpen(
        page,
        "Share Your Referral Link",
        () => page.getByRole("button", { name: "Share your referral link" }).click(),
        page.getByRole("dialog", { name: "Share Your Referral Link" }),
      );

      await page.goto("/dashboard/account-settings");
      await page.getByRole("tab", { name: "Account" }).click();
      await checkOpen(page, "Delete your account?", () => page.getByRole("button", { name: "Delete account" }).click(), page.getByRole("dialog", { name: "Delete your account?" }));
      await page.getByRole("tab", { name: "Security" }).click();
      await checkOpen(
        page,
        "Set up two-factor authentication",
        () => page.getByRole("button", { name: "Set up two-factor authentication" }).click(),
        page.getByRole("dialog", { name: "Set up two-factor authentication" }),
      );
    });

    test("a Lite owner's Upgrade Required dialog over the Add dialog has no axe violations", async ({ page, context }) => {
      await signInAs(context, await createOwner({ trial: false }));
      await page.goto("/dashboard/links");
      await page.getByRole("button", { name: /Add Component|Add Your First Link/ }).first().click();
      const add = page.getByRole("dialog", { name: "Add New Link" });
      await expect(add).toBeVisible();
      await add.getByLabel("Promote & Earn", { exact: true }).click();
      await expect(page.getByRole("dialog", { name: "Upgrade Required" })).toBeVisible();
      await expectNoAxeViolations(page, "Upgrade Required over Add New Link");
    });

    test("the public page's lead and contact card dialogs have no axe violations", async ({ page }) => {
      const owner = await createOwner({ plan: "plus" });
      const db = e2eDb();
      db.update(userProfiles).set({ displayName: "Axe Tester" }).where(eq(userProfiles.userId, owner.userId)).run();
      db.insert(links)
        .values([
          { id: newId(), userId: owner.userId, title: "Free Guide", linkType: "lead_magnet", url: "#", orderIndex: 0, linkSpecificData: { description: "A short guide", fileUrl: "https://files.example/guide.pdf" } },
          { id: newId(), userId: owner.userId, title: "Save my contact", linkType: "vcf", url: "#", orderIndex: 1, linkSpecificData: { name: "Axe Tester", phone: "+1 555 0100" } },
        ])
        .run();
      expect(publishPage(db, owner.userId, { publishedDir: E2E.publishedDir, origin: E2E.origin, apiOrigin: E2E.origin, now: new Date() }).ok).toBe(true);

      await page.goto(`/${owner.username}`);
      await page.getByRole("button", { name: "Accept All" }).click();
      await checkOpen(page, "the lead dialog", () => page.getByRole("button", { name: "Free Guide" }).click(), page.getByRole("dialog", { name: "Free Guide" }));
      await checkOpen(page, "the contact card", () => page.getByRole("link", { name: "Save my contact" }).click(), page.getByRole("dialog", { name: "Axe Tester" }));
    });
  });
}
