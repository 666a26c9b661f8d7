/**
 * The owner's draft revisions (ADR 068). Each write to the draft takes the next value of the owner's
 * counter and stamps what it changed with it: a link, a list or a social link row, or one of the
 * profile's sections below. Values only grow, so a row deleted and restored by a discard never comes
 * back with a revision an old tab still holds.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { userProfiles } from "./schema.ts";

/** The parts of the profile that are edited, and so compared, on their own, and their columns. */
const SECTION_KEYS = {
  text: "textRevision",
  picture: "pictureRevision",
  appearance: "appearanceRevision",
  linksOrder: "linksOrderRevision",
  socialOrder: "socialOrderRevision",
} as const satisfies Record<string, keyof typeof userProfiles.$inferSelect>;
export type ProfileSection = keyof typeof SECTION_KEYS;

/** The section's revision on a profile row. */
export const sectionRevision = (profile: typeof userProfiles.$inferSelect, section: ProfileSection): number => profile[SECTION_KEYS[section]];

/** The next revision of the owner's draft, for one write (inside its transaction). */
export function takeRevision(tx: Db, userId: string): number {
  const row = tx
    .update(userProfiles)
    .set({ draftRevision: sql`${userProfiles.draftRevision} + 1` })
    .where(eq(userProfiles.userId, userId))
    .returning({ n: userProfiles.draftRevision })
    .get();
  if (!row) throw new Error(`No profile for ${userId}`);
  return row.n;
}

/**
 * Stamps a profile section with `revision`, in one statement with the comparison when `base` is
 * given: false when the section has moved on from `base` (another tab wrote it), and nothing changed.
 */
export function stampSection(tx: Db, userId: string, section: ProfileSection, revision: number, base?: number): boolean {
  const column = userProfiles[SECTION_KEYS[section]];
  const where = base === undefined ? eq(userProfiles.userId, userId) : and(eq(userProfiles.userId, userId), eq(column, base));
  return tx.update(userProfiles).set({ [SECTION_KEYS[section]]: revision }).where(where).run().changes === 1;
}

/** Every section at once: a discard or rollback replaced the whole draft. */
export function stampAllSections(tx: Db, userId: string, revision: number): void {
  const all = Object.fromEntries(Object.values(SECTION_KEYS).map((k) => [k, revision]));
  tx.update(userProfiles).set(all).where(eq(userProfiles.userId, userId)).run();
}
