/**
 * The Domain tab of Account & Billing (issue 39, ADR 240, 243), as an owner walks it: add a domain,
 * read the DNS records to create, "Check now" before and after the records exist, the verified
 * address, removal behind a confirmation with focus back; the Plus prompt for a Lite owner; the
 * server's refusals; axe and a 320 px screen; and every address the dashboard shows or shares being
 * the domain once it is verified, and the Plinth address again after its removal or the plan's end (ADR 244). DNS is the e2e server's stand-in, a file of records
 * this test writes (E2E.dnsFile, api/services/dns-file-resolver.ts).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { BrowserContext, Page } from "@playwright/test";
import { addressShown, claimKeyOf, DOMAIN_MESSAGES, DOMAIN_STATE_TEXTS } from "#core/domains.ts";
import { customDomains, userProfiles } from "#db/schema.ts";
import { qrFileName } from "#renderer/components/vcard.ts";
import { publishPage } from "#renderer/publish.ts";
import { expectNoAxeViolations } from "./axe.ts";
import { E2E } from "./env.ts";
import { createOwner, e2eDb, expect, signInAs, test } from "./fixtures.ts";

/** Creates DNS records where the server's checks look them up. */
function createRecords(records: Record<string, string[]>): void {
  const now = JSON.parse(readFileSync(E2E.dnsFile, "utf8")) as Record<string, string[]>;
  writeFileSync(E2E.dnsFile, JSON.stringify({ ...now, ...records }));
}

const unique = () => randomBytes(3).toString("hex");

async function openDomainTab(page: Page) {
  await page.goto("/dashboard/account-settings?tab=domain");
  await expect(page.getByRole("tab", { name: "Domain" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("heading", { name: "Custom domain" })).toBeVisible();
}

/** A record's rows as the screen shows them: type, name, value and status by their terms. */
async function recordOf(page: Page, type: "TXT" | "CNAME") {
  const item = page.getByRole("listitem", { name: `${type} record` });
  const detail = async (term: string) => (await item.getByRole("definition").nth(["Type", "Name", "Value", "Status"].indexOf(term)).innerText()).trim();
  return { item, name: await detail("Name"), value: await detail("Value"), status: () => item.getByRole("definition").nth(3) };
}

test("an owner adds an international domain, reads the records, checks before and after creating them, sees the verified address, and removes it after confirming", async ({ page, owner }) => {
  const shown = `links.bücher-${unique()}.net`;
  await openDomainTab(page);
  await page.getByRole("textbox", { name: "Domain" }).fill(shown.replace("links.", "Links."));
  await page.getByRole("button", { name: "Add domain" }).click();

  // Shown in Unicode; the records name its ASCII form, which DNS uses.
  await expect(page.getByRole("heading", { name: shown, exact: true })).toBeVisible();
  const ascii = new URL(`https://${shown}/`).hostname;
  expect(ascii).toMatch(/^links\.xn--/);
  await expect(page.getByText(DOMAIN_STATE_TEXTS.pending)).toBeVisible();
  const txt = await recordOf(page, "TXT");
  const cname = await recordOf(page, "CNAME");
  expect(txt.name).toBe(`_plinth.${ascii}`);
  expect(txt.value).toMatch(/^plinth-verification=[0-9a-f]{32}$/);
  expect(cname.name).toBe(ascii);
  expect(cname.value).toBe(E2E.domainTarget);
  await expect(cname.item).toContainText(`create A and AAAA records with the addresses of ${E2E.domainTarget}`);

  // Check now before any record exists: both missing, in words.
  const checked = page.waitForResponse((r) => r.url().endsWith("/check") && r.request().method() === "POST");
  await page.getByRole("button", { name: "Check now" }).click();
  expect((await checked).status()).toBe(200);
  await expect(page.getByText(/^Last checked: /)).toBeVisible();
  await expect(txt.status()).toHaveText(DOMAIN_STATE_TEXTS.missing);
  await expect(cname.status()).toHaveText(DOMAIN_STATE_TEXTS.missing);
  expect(e2eDb().select().from(customDomains).where(eq(customDomains.userId, owner.userId)).get()?.lastCheckedAt).not.toBeNull();

  // The TXT record made, the CNAME pointing elsewhere: one found, the other says where it points.
  createRecords({ [`TXT ${txt.name}`]: [txt.value], [`CNAME ${ascii}`]: ["elsewhere.hosting.net"] });
  await page.getByRole("button", { name: "Check now" }).click();
  await expect(txt.status()).toHaveText(DOMAIN_STATE_TEXTS.found);
  await expect(cname.status()).toContainText(DOMAIN_STATE_TEXTS.wrong);
  await expect(cname.status()).toContainText("elsewhere.hosting.net");
  await expect(page.getByText(DOMAIN_STATE_TEXTS.verified)).toHaveCount(0);

  // The CNAME corrected: verified, and the page's address is the domain.
  createRecords({ [`CNAME ${ascii}`]: [E2E.domainTarget] });
  await page.getByRole("button", { name: "Check now" }).click();
  await expect(page.getByRole("status").filter({ hasText: DOMAIN_STATE_TEXTS.verified })).toBeVisible();
  const address = page.getByRole("link", { name: `https://${shown}/` });
  await expect(address).toHaveAttribute("href", `https://${ascii}/`);
  await expect(page.getByRole("button", { name: "Check now" })).toHaveCount(0);
  // After a reload too: it is the server's state, not the screen's.
  await page.reload();
  await expect(page.getByRole("link", { name: `https://${shown}/` })).toBeVisible();

  // Removal asks first; Cancel keeps the domain and gives the focus back to the button.
  const remove = page.getByRole("button", { name: "Remove domain" });
  await remove.click();
  let dialog = page.getByRole("alertdialog", { name: "Remove this domain?" }).or(page.getByRole("dialog", { name: "Remove this domain?" }));
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(shown);
  await expectNoAxeViolations(page, "Remove this domain? dialog");
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(remove).toBeFocused();
  expect(e2eDb().select().from(customDomains).where(eq(customDomains.userId, owner.userId)).get()?.verifiedAt).toBeTruthy();

  await remove.click();
  dialog = page.getByRole("alertdialog", { name: "Remove this domain?" }).or(page.getByRole("dialog", { name: "Remove this domain?" }));
  await dialog.getByRole("button", { name: "Remove domain" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("heading", { name: shown })).toHaveCount(0);
  // The button is gone with the domain: the focus is on the field that adds one.
  await expect(page.getByRole("textbox", { name: "Domain" })).toBeFocused();
  expect(e2eDb().select().from(customDomains).where(eq(customDomains.userId, owner.userId)).get()).toBeUndefined();
});

test("a Lite owner meets the Plus prompt instead of the form", async ({ page, context }) => {
  const lite = await createOwner({ trial: false });
  await signInAs(context, lite);
  await openDomainTab(page);
  await expect(page.getByText("Custom domain is a Plinth Plus feature")).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Domain" })).toBeDisabled();
  await page.getByRole("button", { name: "Upgrade to Plus" }).first().click();
  const prompt = page.getByRole("dialog", { name: "Upgrade to Plinth Plus" });
  await expect(prompt).toContainText("Custom domain is a Plinth Plus feature");
  await expect(prompt.getByRole("button", { name: "Not Now" })).toBeVisible();
  await prompt.getByRole("button", { name: "Not Now" }).click();
  await expect(page.getByRole("button", { name: "Upgrade to Plus" })).toBeFocused();
  // The server refuses a Lite add too, whatever the screen shows.
  const res = await page.request.post("/api/domains", { data: { domain: `links.lite-${unique()}.net` }, headers: { origin: E2E.origin } });
  expect(res.status()).toBe(402);
});

test("the server's refusals are shown under the field: invalid, reserved, Plinth's own, and a domain another page verified", async ({ page, owner }) => {
  const other = await createOwner({ plan: "plus" });
  const taken = `links.taken-${unique()}.net`;
  const now = new Date();
  e2eDb()
    .insert(customDomains)
    .values({ id: `dom_${unique()}`, userId: other.userId, name: taken, claimKey: claimKeyOf(taken), token: "0".repeat(32), createdAt: now, checkUntil: now, verifiedAt: now })
    .run();

  await openDomainTab(page);
  const field = page.getByRole("textbox", { name: "Domain" });
  for (const [typed, message] of [
    ["https://links.mine.net/page", DOMAIN_MESSAGES.invalid],
    ["links.example.com", DOMAIN_MESSAGES.reserved],
    [E2E.domainTarget, DOMAIN_MESSAGES.operator],
    [taken.toUpperCase(), DOMAIN_MESSAGES.taken],
  ] as const) {
    await field.fill(typed);
    await page.getByRole("button", { name: "Add domain" }).click();
    await expect(field).toHaveAccessibleDescription(new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toBeFocused();
  }
  expect(e2eDb().select().from(customDomains).where(eq(customDomains.userId, owner.userId)).get()).toBeUndefined();
});

for (const size of [
  { width: 320, height: 640 },
  { width: 1280, height: 800 },
]) {
  test(`the tab has no axe violations and fits ${size.width} px, empty and with a domain`, async ({ page, owner }) => {
    expect(owner.userId).toBeTruthy();
    await page.setViewportSize(size);
    await openDomainTab(page);
    await expectNoAxeViolations(page, "Domain tab, empty");
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(await fits()).toBe(true);
    await page.getByRole("textbox", { name: "Domain" }).fill(`a-rather-long-subdomain-name.of-a-long-domain-${unique()}.net`);
    await page.getByRole("textbox", { name: "Domain" }).press("Enter");
    await expect(page.getByRole("button", { name: "Check now" })).toBeVisible();
    await expectNoAxeViolations(page, "Domain tab, with its records");
    expect(await fits()).toBe(true);
  });
}

/** Adds `name` on the Domain tab, creates its records and presses Check now until it is verified. */
async function verifyOnTab(page: Page, name: string) {
  await openDomainTab(page);
  await page.getByRole("textbox", { name: "Domain" }).fill(name);
  await page.getByRole("button", { name: "Add domain" }).click();
  const txt = await recordOf(page, "TXT");
  createRecords({ [`TXT ${txt.name}`]: [txt.value], [`CNAME ${name}`]: [E2E.domainTarget] });
  await page.getByRole("button", { name: "Check now" }).click();
  await expect(page.getByRole("status").filter({ hasText: DOMAIN_STATE_TEXTS.verified })).toBeVisible();
}

/** A tab the dashboard opens, once it has loaded. */
async function opened(context: BrowserContext, open: () => Promise<void>): Promise<Page> {
  const [popup] = await Promise.all([context.waitForEvent("page"), open()]);
  await popup.waitForLoadState();
  return popup;
}

/** The address a previewed page (the draft's, or a version's) shows in its QR code and share dialogs. */
async function expectPreviewAddress(preview: Page, address: string) {
  await preview.getByRole("button", { name: "Show QR code" }).click();
  const qr = preview.getByRole("dialog", { name: "QR Code" });
  await expect(qr.getByText(address, { exact: true })).toBeVisible();
  await expect(qr.getByRole("img", { name: `QR code for ${address}` })).toBeVisible();
  await preview.keyboard.press("Escape");
  await preview.getByRole("button", { name: "Share This Page" }).click();
  const share = preview.getByRole("dialog", { name: "Share This Page" });
  await expect(share.getByRole("textbox", { name: "Page link" })).toHaveValue(address);
  // The QR code to download is the one of this address.
  await expect(share.getByRole("link", { name: "Download QR code" })).toHaveAttribute("href", new RegExp(`/${qrFileName(address)}$`));
  await preview.close();
}

/** Every place the dashboard shows or shares the page's address shows `address`. */
async function expectAddressEverywhere(page: Page, context: BrowserContext, address: string) {
  // Page Layout's "View Public Page".
  await page.goto("/dashboard/links");
  await expect(page.getByRole("link", { name: "View Public Page" })).toHaveAttribute("href", address);
  // The user menu's "View Public Page" opens it.
  await page.getByRole("button", { name: /, user menu$/ }).click();
  const visited = await opened(context, () => page.getByRole("menuitem", { name: "View Public Page" }).click());
  expect(visited.url()).toBe(address);
  await visited.close();

  // Analytics' Share copies it.
  await page.goto("/dashboard/analytics");
  await page.getByRole("button", { name: "Share Your Page" }).click();
  await expect(page.getByText("Link copied to clipboard")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);

  // The draft preview and History's preview of the published version.
  await expectPreviewAddress(await opened(context, () => page.getByRole("link", { name: "Preview" }).click()), address);
  await page.getByRole("button", { name: "History" }).click();
  await expectPreviewAddress(await opened(context, () => page.getByRole("link", { name: "Preview: version 1 (opens in a new tab)" }).click()), address);
  await page.keyboard.press("Escape");

  // Bio & SEO: the search result preview, and the live preview's share link.
  await page.goto("/dashboard/bio");
  await expect(page.getByRole("figure", { name: "Search result preview" })).toContainText(addressShown(address));
  const frame = page.getByTestId("live-preview").contentFrame();
  await expect(frame.getByLabel("Page link")).toHaveValue(address);
}

test("once the domain is verified every address the dashboard shows or shares is the domain; its removal and the plan's end bring the Plinth address back", async ({ page, context, owner }) => {
  test.slow();
  const name = `links.shared-${unique()}.net`;
  const domain = `https://${name}/`;
  const plinth = `${E2E.origin}/${owner.username}`;
  expect(publishPage(e2eDb(), owner.userId, { publishedDir: E2E.publishedDir, origin: E2E.origin, now: new Date() }).ok).toBe(true);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: E2E.origin });
  await context.addInitScript(() => Object.defineProperty(navigator, "share", { value: undefined }));
  // The domain's DNS is the test's: its visit is answered here.
  await context.route(`${domain}**`, (r) => r.fulfill({ status: 200, contentType: "text/html", body: "<title>The page at its domain</title>" }));

  await expectAddressEverywhere(page, context, plinth);

  await verifyOnTab(page, name);
  await expectAddressEverywhere(page, context, domain);

  // Removed: the Plinth address everywhere again.
  await openDomainTab(page);
  await page.getByRole("button", { name: "Remove domain" }).click();
  await page.getByRole("alertdialog", { name: "Remove this domain?" }).or(page.getByRole("dialog", { name: "Remove this domain?" })).getByRole("button", { name: "Remove domain" }).click();
  await expect(page.getByRole("textbox", { name: "Domain" })).toBeFocused();
  await expectAddressEverywhere(page, context, plinth);

  // Verified again, then the trial ends: the domain is kept, the address is the Plinth one.
  await verifyOnTab(page, name);
  await page.goto("/dashboard/links");
  await expect(page.getByRole("link", { name: "View Public Page" })).toHaveAttribute("href", domain);
  e2eDb().update(userProfiles).set({ trialEndsAt: new Date() }).where(eq(userProfiles.userId, owner.userId)).run();
  await expectAddressEverywhere(page, context, plinth);
  expect(e2eDb().select().from(customDomains).where(eq(customDomains.userId, owner.userId)).get()?.verifiedAt).toBeTruthy();
});
