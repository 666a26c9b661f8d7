/**
 * The demo owner for npm run seed: a demo owner (username demo) with a few links and social icons, published.
 * Safe to run again: the demo account is reset to the same content and republished.
 * The password comes from DEMO_PASSWORD, or a fresh random one is made and printed.
 */
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { createDeps } from "#api/deps.ts";
import { hashPassword } from "#api/auth/password.ts";
import { createAccount } from "#api/services/accounts.ts";
import { closeDatabase } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { links, socialLinks, userProfiles, users } from "#db/schema.ts";
import { publishPage } from "#renderer/publish.ts";

export const DEMO_USERNAME = "demo";
export const DEMO_EMAIL = "demo@plinth.localhost";

export async function seedDemo(deps = createDeps(), password = process.env.DEMO_PASSWORD) {
  const { db, env } = deps;
  const now = new Date();
  const secret = password ?? `Demo-${randomBytes(9).toString("base64url")}-9!`;
  const passwordHash = await hashPassword(secret);

  const existing = db.select({ userId: userProfiles.userId }).from(userProfiles).where(eq(userProfiles.username, DEMO_USERNAME)).get();
  if (existing) db.delete(users).where(eq(users.id, existing.userId)).run();
  db.delete(users).where(eq(users.email, DEMO_EMAIL)).run();

  const { userId } = createAccount(db, { email: DEMO_EMAIL, username: DEMO_USERNAME, passwordHash, emailVerified: true, now });
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
  const demoLinks = [
    { title: "My portfolio", url: "https://example.com/portfolio" },
    { title: "Latest article: designing for small screens", url: "https://example.com/blog/small-screens" },
    { title: "Sourdough recipe", url: "https://example.com/recipes/sourdough" },
    { title: "Say hello", url: "mailto:hello@example.com" },
  ];
  demoLinks.forEach((l, i) => {
    db.insert(links).values({ id: newId(), userId, title: l.title, url: l.url, linkType: "standard_url", orderIndex: i, createdAt: now, updatedAt: now }).run();
  });
  const socials = [
    { platform: "instagram" as const, url: "https://www.instagram.com/democreator" },
    { platform: "github" as const, url: "https://github.com/democreator" },
    { platform: "youtube" as const, url: "https://www.youtube.com/@democreator" },
  ];
  socials.forEach((s, i) => {
    db.insert(socialLinks).values({ id: newId(), userId, platform: s.platform, url: s.url, displayOrder: i + 1, createdAt: now, updatedAt: now }).run();
  });
  const result = publishPage(db, userId, { publishedDir: env.PUBLISHED_DIR, origin: env.PUBLIC_ORIGIN, now });
  return { userId, email: DEMO_EMAIL, password: secret, published: result.ok };
}

