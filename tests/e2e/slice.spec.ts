/**
 * The architecture end to end: the demo owner's draft gets a new link through the API, publish runs,
 * and the browser loading /demo gets the static file published/demo/index.html showing that link.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { userProfiles } from "#db/schema.ts";
import { E2E } from "./env.ts";
import { e2eDb, expect, signInAs, test } from "./fixtures.ts";

test("a link added through the API is on the static page after publish", async ({ page, context }) => {
  const demo = e2eDb().select().from(userProfiles).where(eq(userProfiles.username, "demo")).get();
  expect(demo).toBeTruthy();
  await signInAs(context, { userId: demo!.userId, username: "demo", email: "demo@plinth.localhost", password: E2E.demoPassword });

  // Calls made from a page of the site, as the dashboard makes them (same-origin fetch).
  await page.goto("/");
  const title = `Slice link ${Date.now()}`;
  const added = await page.evaluate(async (t) => {
    const res = await fetch("/api/links", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ linkType: "standard_url", title: t, url: "https://example.org/slice" }),
    });
    return { status: res.status, body: await res.json() };
  }, title);
  expect(added.status).toBe(201);

  const published = await page.evaluate(async () => {
    const res = await fetch("/api/publish", { method: "POST" });
    return res.status;
  });
  expect(published).toBe(200);

  const onDisk = readFileSync(join(E2E.publishedDir, "demo", "index.html"), "utf8");
  expect(onDisk).toContain(title);

  const response = await page.goto("/demo");
  expect(response?.status()).toBe(200);
  expect(await response?.text()).toBe(onDisk);
  const link = page.getByRole("link", { name: title });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute("href", "https://example.org/slice");
});

test("the landing page, health check and an unknown page answer", async ({ page, request }) => {
  const home = await page.goto("/");
  expect(home?.status()).toBe(200);
  await expect(page).toHaveTitle("Plinth: Your Links, Elevated | Link in Bio Platform");

  const health = await request.get("/api/health");
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({ ok: true, db: "ok" });

  const missing = await page.goto("/no-such-owner-here");
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
});
