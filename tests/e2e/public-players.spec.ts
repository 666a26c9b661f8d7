/**
 * A visitor on a published page with a YouTube player, a Music release on three services and a
 * Social button (issue 37; ADR 210-212): the page loads with no request to any other host and no
 * cookie, pressing play (by mouse, or Enter on the focused button) swaps in the embed from the
 * privacy host and counts a click on the link, and without JavaScript every player is a plain link.
 */
import { and, eq } from "drizzle-orm";
import type { BrowserContext, Page } from "@playwright/test";
import { analyticsEvents, links, userProfiles } from "#db/schema.ts";
import { newId } from "#db/ids.ts";
import { publishPage } from "#renderer/publish.ts";
import { expectNoAxeViolations } from "./axe.ts";
import { E2E } from "./env.ts";
import { createOwner, e2eDb, expect, test, type TestOwner } from "./fixtures.ts";

const YT = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";
const SERVICES = [
  { service: "bandcamp", url: "https://artist.bandcamp.com/album/first" },
  { service: "spotify", url: "https://open.spotify.com/album/4uLU6hMCjMI75M1A2tKUQC" },
  { service: "apple_music", url: "https://music.apple.com/us/album/first/1708308989" },
];

/** A Plus owner's published page: a YouTube player, a Music release and a Social button. */
async function publishedPlayers(): Promise<TestOwner & { videoId: string; musicId: string }> {
  const owner = await createOwner({ plan: "plus" });
  const db = e2eDb();
  db.update(userProfiles).set({ displayName: "Player Tester", bio: "Listen and watch" }).where(eq(userProfiles.userId, owner.userId)).run();
  const videoId = newId();
  const musicId = newId();
  db.insert(links).values({ id: videoId, userId: owner.userId, title: "My new video", url: YT, linkSpecificData: { player: "on" }, orderIndex: 0 }).run();
  db.insert(links)
    .values({ id: musicId, userId: owner.userId, title: "First album", linkType: "music", url: SERVICES[0]!.url, linkSpecificData: { services: JSON.stringify(SERVICES) }, orderIndex: 1 })
    .run();
  db.insert(links)
    .values({ id: newId(), userId: owner.userId, title: "Instagram", linkType: "social", url: "https://www.instagram.com/player.tester", linkSpecificData: { platform: "instagram", handle: "player.tester" }, orderIndex: 2 })
    .run();
  const res = publishPage(db, owner.userId, { publishedDir: E2E.publishedDir, origin: E2E.origin, apiOrigin: E2E.origin, now: new Date() });
  expect(res.ok).toBe(true);
  return { ...owner, videoId, musicId };
}

/**
 * Every request that would leave this machine fails the test; the embed's host answers locally with
 * an empty page, and only once play was pressed.
 */
async function guard(page: Page, context: BrowserContext) {
  const outside: string[] = [];
  const embeds: string[] = [];
  await context.route(
    (url) => !url.href.startsWith(E2E.origin) && !url.href.startsWith("data:"),
    (route) => {
      const u = route.request().url();
      if (u.startsWith("https://www.youtube-nocookie.com/embed/")) {
        embeds.push(u);
        return route.fulfill({ contentType: "text/html", body: "<!doctype html><title>Embed</title>" });
      }
      outside.push(u);
      return route.abort();
    },
  );
  return { outside, embeds, cookies: () => context.cookies() };
}

const clicks = (owner: TestOwner) =>
  e2eDb()
    .select()
    .from(analyticsEvents)
    .where(and(eq(analyticsEvents.userId, owner.userId), eq(analyticsEvents.kind, "link_click")))
    .all()
    .map((e) => e.linkId);

test("a page with players loads nothing from elsewhere; play swaps in the nocookie embed and counts a click", async ({ page, context }) => {
  const owner = await publishedPlayers();
  const g = await guard(page, context);
  await page.goto(`/${owner.username}`);
  await page.getByRole("button", { name: "Accept All" }).click();

  const play = page.getByRole("button", { name: "Play My new video (YouTube)" });
  await expect(play).toBeVisible();
  // The Music card: the title, and the owner's services in order; the Social button.
  const listen = page.getByRole("list", { name: "Listen to First album" });
  await expect(listen.getByRole("link")).toHaveText(["Bandcamp", "Spotify", "Apple Music"]);
  await expect(listen.getByRole("link", { name: "Spotify" })).toHaveAttribute("href", SERVICES[1]!.url);
  await expect(page.getByRole("link", { name: "Instagram" })).toHaveAttribute("href", "https://www.instagram.com/player.tester");
  await expectNoAxeViolations(page);
  expect(g.outside).toEqual([]);
  expect(g.embeds).toEqual([]);
  expect(await g.cookies()).toEqual([]);

  await play.click();
  const frame = page.locator("iframe");
  await expect(frame).toHaveCount(1);
  await expect(frame).toHaveAttribute("src", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1");
  await expect(frame).toHaveAttribute("title", "My new video (YouTube)");
  await expect(frame).toHaveAttribute("loading", "lazy");
  await expect(frame).toBeFocused();
  await expect.poll(() => g.embeds).toEqual(["https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1"]);
  await expect.poll(() => clicks(owner)).toEqual([owner.videoId]);
  // The frame keeps the facade's box: 16:9 across the page's column.
  const box = (await frame.boundingBox())!;
  expect(Math.abs(box.width / box.height - 16 / 9)).toBeLessThan(0.02);
  expect(g.outside).toEqual([]);
  await expectNoAxeViolations(page);
});

test("Enter on the focused play button loads the player, and nothing scrolls sideways at 320 px", async ({ page, context }) => {
  const owner = await publishedPlayers();
  const g = await guard(page, context);
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto(`/${owner.username}`);
  await page.getByRole("button", { name: "Accept All" }).click();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await page.getByRole("button", { name: "Play My new video (YouTube)" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.locator("iframe")).toHaveAttribute("src", /^https:\/\/www\.youtube-nocookie\.com\/embed\//);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  expect(g.outside).toEqual([]);
});

test("without JavaScript, each player is a plain link to its address", async ({ browser }) => {
  const owner = await publishedPlayers();
  const context = await browser.newContext({ baseURL: E2E.origin, javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    const g = await guard(page, context);
    await page.goto(`/${owner.username}`);
    const video = page.getByRole("link", { name: "My new video (YouTube)" });
    await expect(video).toHaveAttribute("href", YT);
    await expect(page.getByRole("button", { name: /Play/ })).toHaveCount(0);
    await expect(page.locator("iframe")).toHaveCount(0);
    await expect(page.getByRole("list", { name: "Listen to First album" }).getByRole("link")).toHaveCount(3);
    expect(g.outside).toEqual([]);
    await page.goto("about:blank");
  } finally {
    await context.close();
  }
});
