/**
 * The site promises only what exists (ADR 143). Every feature /pricing, /features and the landing
 * page's Plus slides sell is a row of core's feature table, and every row has its place in the
 * dashboard, which this test visits as an owner on the trial (every feature open) and finds by role
 * and name. A row the site sells without a place here, or whose place the editor lacks, fails.
 */
import type { Page } from "@playwright/test";
import { recordEvents } from "#api/services/analytics-store.ts";
import { SITE_FEATURES, type SiteFeatureId } from "#core/features.ts";
import { EDITOR_LINK_TYPES, LINK_TYPE_LABELS, LINK_TYPES } from "#core/link-types.ts";
import { FONT_PAIRINGS, THEMES } from "#core/themes.ts";
import { e2eDb, expect, test } from "./fixtures.ts";

type Role = Parameters<Page["getByRole"]>[0];
/**
 * A screen, the buttons (or disclosure summaries) pressed on the way, a field typed into then (found
 * by its label), and the control found there by role and name.
 */
interface Place {
  path: string;
  press?: string[];
  fill?: { label: string; value: string };
  role: Role;
  name: string;
}

const addDialog = (role: Role, name: string, more = false): Place => ({ path: "/dashboard/links", press: ["Add Component", ...(more ? ["More options"] : [])], role, name });
const premiumTheme = THEMES.find((t) => !t.free)!.name;

/** Where each row of the table lives in the dashboard. The Record makes a new row without a place a type error. */
const PLACES: Record<SiteFeatureId, Place[]> = {
  links: [addDialog("radio", "Link"), addDialog("radio", "Label"), addDialog("radio", "Text Link"), addDialog("radio", "Donation")],
  // A player is a way of showing a Link: the dialog's switch shows once a player address is typed.
  players: [{ ...addDialog("switch", "Show as a player"), fill: { label: "URL", value: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" } }],
  "social-buttons": [addDialog("radio", "Social")],
  music: [addDialog("radio", "Music")],
  "social-icons": [{ path: "/dashboard/social-links", role: "button", name: "Instagram" }],
  profile: [
    { path: "/dashboard/profile-picture", role: "radio", name: "Initials" },
    { path: "/dashboard/bio", role: "textbox", name: "Bio" },
  ],
  design: [
    { path: "/dashboard/appearance", role: "radio", name: THEMES.find((t) => t.free)!.name },
    { path: "/dashboard/appearance", role: "radio", name: "Pill" },
    { path: "/dashboard/appearance", role: "group", name: "Colours" },
  ],
  "qr-code": [{ path: "/dashboard/social-links", role: "switch", name: "Visible: QR Code" }],
  analytics: [{ path: "/dashboard/analytics", role: "tab", name: "Overview" }],
  unlimited: [{ path: "/dashboard/links", role: "button", name: "Add Component" }],
  "lead-magnets": [addDialog("radio", "Lead Magnet"), { path: "/dashboard/analytics", role: "tab", name: "Email Leads" }],
  "contact-cards": [addDialog("radio", "Contact Card")],
  scheduling: [addDialog("textbox", "Schedule start", true), addDialog("textbox", "Schedule end", true)],
  thumbnails: [addDialog("textbox", "Thumbnail image URL", true)],
  "long-form-text": [{ path: "/dashboard/bio", role: "textbox", name: "About section" }],
  "premium-themes": [{ path: "/dashboard/appearance", role: "radio", name: premiumTheme }],
  "font-pairings": [{ path: "/dashboard/appearance", role: "radio", name: FONT_PAIRINGS[1]!.name }],
  "main-button": [addDialog("checkbox", "Make this the main button", true)],
  "remove-branding": [{ path: "/dashboard/appearance", role: "checkbox", name: "Remove Plinth branding" }],
  "detailed-analytics": [
    { path: "/dashboard/analytics", role: "tab", name: "Link Performance" },
    { path: "/dashboard/analytics", role: "tab", name: "Traffic Sources" },
  ],
  seo: [{ path: "/dashboard/bio", role: "textbox", name: "SEO title" }],
  "promote-and-earn": [{ path: "/dashboard/affiliate", role: "heading", name: "Affiliate Program" }, addDialog("radio", "Promote & Earn")],
  "custom-domain": [{ path: "/dashboard/account-settings?tab=domain", role: "textbox", name: "Domain" }],
  "tips-and-paid-downloads": [addDialog("radio", "Tip"), addDialog("radio", "Paid Download"), { path: "/dashboard/earnings", role: "heading", name: "Get paid" }],
  "billing-history": [{ path: "/dashboard/account-settings?tab=billing", role: "region", name: "Billing History" }],
};

async function advertised(page: Page, path: string): Promise<string[]> {
  await page.goto(path);
  return page.locator("main [data-feature]").evaluateAll((els) => els.map((e) => e.getAttribute("data-feature")!));
}

test("/pricing, /features and the landing page sell only rows of the feature table, each once per list, with no name twice", async ({ page }) => {
  const ids = SITE_FEATURES.map((f) => f.id as string);
  const pricing = await advertised(page, "/pricing");
  const table = page.getByRole("table");
  await expect(table.getByRole("row")).toHaveCount(SITE_FEATURES.length + 1);
  const names = await table.getByRole("rowheader").allTextContents();
  expect(new Set(names).size).toBe(names.length);
  await expect(table.getByRole("rowheader", { name: /Lead magnet/ })).toHaveCount(1);
  await expect(table.getByRole("rowheader", { name: /affiliate/i })).toHaveCount(1);
  const features = await advertised(page, "/features");
  const landing = await advertised(page, "/");
  for (const id of [...pricing, ...features, ...landing]) expect(ids, `advertised "${id}"`).toContain(id);
  expect(new Set(features).size).toBe(features.length);
  expect(new Set(landing).size).toBe(landing.length);
  // The Plus slides sell Plus rows only.
  for (const id of landing) expect(SITE_FEATURES.find((f) => f.id === id)!.plan, id).toBe("plus");
  await expect(page.getByRole("region", { name: "Experience the Plus" })).not.toContainText(/button style|colours/i);
});

test("/features and /help sell no link type the Add Link dialog lacks, and say what the dashboard does with leads", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.goto("/features");
  const sold = await page.locator("main [data-link-type]").evaluateAll((els) => els.map((e) => e.getAttribute("data-link-type")!));
  expect(sold).toEqual([...EDITOR_LINK_TYPES]);
  for (const t of LINK_TYPES.filter((t) => !(EDITOR_LINK_TYPES as readonly string[]).includes(t))) {
    await expect(page.getByRole("main").getByRole("heading", { name: LINK_TYPE_LABELS[t], exact: true })).toHaveCount(0);
  }
  await page.goto("/help?q=lead");
  await expect(page.getByRole("main")).toContainText("under Analytics, Email Leads: the address, the link it came through and the date");

  await page.goto("/dashboard/links");
  await page.getByRole("button", { name: "Add Component" }).click();
  const types = page.getByRole("dialog", { name: "Add New Link" }).getByRole("group", { name: "Link type" }).getByRole("radio");
  await expect(types).toHaveCount(sold.length);
  for (const [i, t] of sold.entries()) await expect(types.nth(i)).toHaveAccessibleName(new RegExp(`^${LINK_TYPE_LABELS[t as keyof typeof LINK_TYPE_LABELS].replace(/[&]/g, "\\$&")}`));
});

test("every feature the site sells has its place in the dashboard", async ({ page, owner }) => {
  // A visited page, so Analytics shows its tabs rather than the first-visit screen.
  recordEvents(e2eDb(), [{ userId: owner.userId, kind: "page_view", device: "mobile", occurredAt: new Date() }]);
  // Each screen (and what is pressed on it) once, with every control looked for there.
  const visits = new Map<string, { place: Place; rows: { id: string; place: Place }[] }>();
  for (const feature of SITE_FEATURES) {
    for (const place of PLACES[feature.id]) {
      const key = [place.path, ...(place.press ?? []), ...(place.fill ? [`${place.fill.label}: ${place.fill.value}`] : [])].join(" > ");
      const visit = visits.get(key) ?? { place, rows: [] };
      visit.rows.push({ id: feature.id, place });
      visits.set(key, visit);
    }
  }
  for (const [where, { place, rows }] of visits) {
    await page.goto(place.path);
    for (const press of place.press ?? []) {
      await page.getByRole("button", { name: press, exact: true }).or(page.getByText(press, { exact: true })).first().click();
    }
    const control = (p: Place) => page.getByRole(p.role, { name: p.name }).first();
    if (place.fill) {
      // What the typing brings: not there before it.
      for (const row of rows) await expect(control(row.place), `${row.id}: ${row.place.role} "${row.place.name}" before typing`).toHaveCount(0);
      await page.getByRole("textbox", { name: place.fill.label, exact: true }).fill(place.fill.value);
    }
    for (const row of rows) {
      await expect(control(row.place), `${row.id}: ${row.place.role} "${row.place.name}" on ${where}`).toBeVisible();
    }
  }
});
