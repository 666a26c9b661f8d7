/**
 * Leads on screen (ADR 142): the owner sees the e-mail addresses a lead magnet collected, with the link
 * and the date, pages through them, exports them and erases one; Lite sees the Plus prompt instead.
 */
import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { recordEvents } from "#api/services/analytics-store.ts";
import { LEADS_PAGE_SIZE } from "#core/analytics.ts";
import { newId } from "#db/ids.ts";
import { collectedLeads } from "#db/schema.ts";
import { expectNoAxeViolations } from "./axe.ts";
import { createOwner, e2eDb, expect, signInAs, test, type TestOwner } from "./fixtures.ts";

/** A page that has been visited, with `n` leads a minute apart, the newest "visitor{n-1}". */
function visitedWithLeads(owner: TestOwner, n: number) {
  const now = Date.now();
  recordEvents(e2eDb(), [{ userId: owner.userId, kind: "page_view", device: "mobile", occurredAt: new Date(now - 3_600_000) }]);
  for (let i = 0; i < n; i++) {
    e2eDb()
      .insert(collectedLeads)
      .values({ id: newId(), userId: owner.userId, linkTitle: "Free guide", email: `visitor${i}@example.com`, createdAt: new Date(now - (n - i) * 60_000) })
      .run();
  }
}

const leadsOf = (owner: TestOwner) => e2eDb().select().from(collectedLeads).where(eq(collectedLeads.userId, owner.userId)).all();

async function openLeads(page: Page) {
  await page.goto("/dashboard/analytics");
  await page.getByRole("button", { name: "View leads" }).click();
  await expect(page.getByRole("tab", { name: "Email Leads" })).toHaveAttribute("aria-selected", "true");
}

test("the owner pages through the collected leads, exports them and deletes one, the list loading on first use", async ({ page, owner }) => {
  visitedWithLeads(owner, LEADS_PAGE_SIZE + 2);
  const chunks: string[] = [];
  page.on("request", (r) => chunks.push(r.url()));
  await page.goto("/dashboard/analytics");
  await expect(page.getByRole("heading", { name: "Analytics", exact: true })).toBeVisible();
  await expect(page.getByText(String(LEADS_PAGE_SIZE + 2), { exact: true })).toBeVisible();
  expect(chunks.filter((u) => /LeadsPanel/.test(u))).toEqual([]);

  await page.getByRole("button", { name: "View leads" }).click();
  const table = page.getByRole("table", { name: /Email leads, newest first/ });
  await expect(table).toBeVisible();
  expect(chunks.filter((u) => /LeadsPanel/.test(u)).length).toBeGreaterThan(0);
  const rows = table.getByRole("row");
  await expect(rows).toHaveCount(LEADS_PAGE_SIZE + 1);
  const newest = rows.nth(1);
  await expect(newest.getByRole("rowheader")).toHaveText(`visitor${LEADS_PAGE_SIZE + 1}@example.com`);
  await expect(newest.getByRole("cell").first()).toHaveText("Free guide");
  await expect(newest.getByRole("cell").nth(1)).toHaveText(/ at \d{1,2}:\d{2} (AM|PM)$/);
  await expect(page.getByText(`${LEADS_PAGE_SIZE + 2} leads in all.`)).toBeVisible();
  const pages = page.getByRole("navigation", { name: "Lead pages" });
  await expect(pages.getByText("Page 1 of 2")).toBeVisible();
  await expect(pages.getByRole("button", { name: "Previous" })).toBeDisabled();
  await expectNoAxeViolations(page, "the Email Leads tab");

  await pages.getByRole("button", { name: "Next" }).click();
  await expect(pages.getByText("Page 2 of 2")).toBeVisible();
  await expect(rows).toHaveCount(3);
  await expect(table.getByRole("rowheader")).toHaveText(["visitor1@example.com", "visitor0@example.com"]);

  // Export: every lead, as CSV.
  const exportAll = page.getByRole("link", { name: "Export all to CSV" });
  const csv = await page.request.get((await exportAll.getAttribute("href"))!);
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-disposition"]).toContain(`plinth-leads-${owner.username}-all.csv`);
  const text = await csv.text();
  for (let i = 0; i < LEADS_PAGE_SIZE + 2; i++) expect(text).toContain(`"visitor${i}@example.com","Free guide"`);

  // Erase one: confirmed first; Cancel keeps it.
  const remove = table.getByRole("button", { name: "Delete visitor1@example.com" });
  await remove.click();
  const confirm = page.getByRole("alertdialog", { name: "Delete Lead" });
  await expect(confirm).toContainText("Delete visitor1@example.com from your leads? Do this when the visitor asks to be erased. This cannot be undone.");
  await expectNoAxeViolations(page, "the Delete Lead confirm");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(remove).toBeFocused();
  await remove.click();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Lead deleted")).toBeVisible();
  await expect(table.getByRole("rowheader")).toHaveText(["visitor0@example.com"]);
  // The focus goes on to the next lead's Delete.
  await expect(table.getByRole("button", { name: "Delete visitor0@example.com" })).toBeFocused();
  expect(leadsOf(owner).map((l) => l.email)).not.toContain("visitor1@example.com");
  expect(leadsOf(owner)).toHaveLength(LEADS_PAGE_SIZE + 1);

  // The last lead of page 2 goes: back to page 1, now the only page.
  await table.getByRole("button", { name: "Delete visitor0@example.com" }).click();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(rows).toHaveCount(LEADS_PAGE_SIZE + 1);
  await expect(page.getByRole("navigation", { name: "Lead pages" })).toHaveCount(0);
  await expect(page.getByText(`${LEADS_PAGE_SIZE} leads in all.`)).toBeVisible();
});

test("a Lite owner's Email Leads tab is the Plus prompt, and the leads stay stored", async ({ page, context }) => {
  const owner = await createOwner({ trial: false });
  await signInAs(context, owner);
  visitedWithLeads(owner, 2);
  await page.goto("/dashboard/analytics");
  await expect(page.getByRole("button", { name: "View leads" })).toHaveCount(0);
  await page.getByRole("tab", { name: "Email Leads" }).click();
  const panel = page.getByRole("tabpanel", { name: "Email Leads" });
  await expect(panel.getByText("This feature requires Plinth Plus. Click to upgrade!")).toBeVisible();
  await expect(panel.getByRole("table")).toHaveCount(0);
  await expectNoAxeViolations(page, "the Email Leads tab on Lite");
  await panel.getByRole("button", { name: "Plus Feature" }).click();
  await expect(page.getByRole("dialog", { name: "Upgrade to Plinth Plus" })).toContainText("View and export leads is a Plinth Plus feature.");
  expect(leadsOf(owner)).toHaveLength(2);
});

test("no leads yet: the tab says what will show there", async ({ page, owner }) => {
  visitedWithLeads(owner, 0);
  await openLeads(page);
  await expect(page.getByRole("heading", { name: "No leads yet" })).toBeVisible();
  await expect(page.getByText("When visitors leave their email address for one of your lead magnets, it shows here.")).toBeVisible();
});
