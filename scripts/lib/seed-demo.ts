/**
 * The demo owner for npm run seed: a demo owner (username demo) with a few links and social icons,
 * published into the publish target (the folder, or the bucket with PUBLISH_TARGET=s3). Safe to run
 * again: the demo account is reset to the same content and republished. All or nothing: a demo
 * whose page could not be published is taken out again, so a failed seed leaves no half-made demo.
 * The password comes from DEMO_PASSWORD, or a fresh random one is made and printed.
 */
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { AppDeps } from "#api/context.ts";
import { hashPassword } from "#api/auth/password.ts";
import { pagesOrigin } from "#api/env.server.ts";
import { createAccount } from "#api/services/accounts.ts";
import { transaction } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { links, socialLinks, userProfiles, users } from "#db/schema.ts";
import { publishPage } from "#renderer/publish.ts";
import { throughTarget } from "#renderer/publish-target.ts";

export const DEMO_USERNAME = "demo";
export const DEMO_EMAIL = "demo@plinth.localhost";

const DEMO_LINKS = [
  { title: "My portfolio", url: "https://example.com/portfolio" },
  { title: "Latest article: designing for small screens", url: "https://example.com/blog/small-screens" },
  { title: "Sourdough recipe", url: "https://example.com/recipes/sourdough" },
  { title: "Say hello", url: "mailto:hello@example.com" },
];
const DEMO_SOCIALS = [
  { platform: "instagram" as const, url: "https://www.instagram.com/democreator" },
  { platform: "github" as const, url: "https://github.com/democreator" },
  { platform: "youtube" as const, url: "https://www.youtube.com/@democreator" },
];

export async function seedDemo(deps: Pick<AppDeps, "db" | "env" | "target">, password = process.env.DEMO_PASSWORD) {
  const { db, env } = deps;
  const now = new Date();
  const secret = password ?? `Demo-${randomBytes(9).toString("base64url")}-9!`;
  const passwordHash = await hashPassword(secret);

  const existing = db.select({ userId: userProfiles.userId }).from(userProfiles).where(eq(userProfiles.username, DEMO_USERNAME)).get();
  if (existing) db.delete(users).where(eq(users.id, existing.userId)).run();
  db.delete(users).where(eq(users.email, DEMO_EMAIL)).run();
  const { userId } = createAccount(db, { email: DEMO_EMAIL, username: DEMO_USERNAME, passwordHash, emailVerified: true, now });
  try {
    transaction(db, () => {
      db.update(userProfiles)
        .set({
          displayName: "Demo Creator",
          bio: "Designer, writer and weekend baker. Everything I make, in one place.",
          seoDescription: "Links, projects and recipes from Demo Creator.",
          initialsText: "DC",
          profilePictureStyle: "initials",
          updatedAt: now,
        })
        .where(eq(userProfiles.userId, userId))
        .run();
      DEMO_LINKS.forEach((l, i) => {
        db.insert(links).values({ id: newId(), userId, title: l.title, url: l.url, linkType: "standard_url", orderIndex: i, createdAt: now, updatedAt: now }).run();
      });
      DEMO_SOCIALS.forEach((s, i) => {
        db.insert(socialLinks).values({ id: newId(), userId, platform: s.platform, url: s.url, displayOrder: i + 1, createdAt: now, updatedAt: now }).run();
      });
    });
    // A publish is its own durable transaction, and a bucket takes the page once it has committed.
    const opts = { publishedDir: env.PUBLISHED_DIR, origin: env.PUBLIC_ORIGIN, pagesOrigin: pagesOrigin(env), now };
    const result = await throughTarget(deps.target, (writer) => publishPage(db, userId, { ...opts, writer }));
    if (!result.ok) throw new Error(`The demo page was not published (${result.reason}).`);
  } catch (err) {
    db.delete(users).where(eq(users.id, userId)).run();
    throw err;
  }
  return { userId, email: DEMO_EMAIL, password: secret, published: true };
}
