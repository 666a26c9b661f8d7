/**
 * A visitor whose address has had its download links for the day is told so in the lead dialog
 * (ADR 092), instead of the generic failure, and no e-mail goes out.
 */
import { newId } from "#db/ids.ts";
import { leadMailSends, links } from "#db/schema.ts";
import { LEAD_MAIL_LIMITS, LEAD_MAIL_TEXTS, recipientHash } from "#api/services/lead-mail.ts";
import { publishPage } from "#renderer/publish.ts";
import { readOutbox } from "#tests/support/mail.ts";
import { E2E } from "./env.ts";
import { createOwner, e2eDb, expect, test } from "./fixtures.ts";

test("the lead dialog explains a recipient's daily cap and sends nothing", async ({ page }) => {
  const owner = await createOwner({ plan: "plus" });
  const db = e2eDb();
  db.insert(links)
    .values({ id: newId(), userId: owner.userId, title: "Free Guide", url: "#", linkType: "lead_magnet", linkSpecificData: { description: "A short guide", fileUrl: "https://files.example/guide.pdf" } })
    .run();
  expect(publishPage(db, owner.userId, { publishedDir: E2E.publishedDir, origin: E2E.origin, apiOrigin: E2E.origin, now: new Date() }).ok).toBe(true);
  // This address already had its links today, from other pages.
  const email = `${owner.username}-reader@example.com`;
  for (let i = 0; i < LEAD_MAIL_LIMITS.perRecipientPerDay; i++) {
    db.insert(leadMailSends).values({ id: newId(), pageUserId: "another-page", recipientHash: recipientHash(email), sentAt: new Date() }).run();
  }

  await page.goto(`/${owner.username}`);
  await page.getByRole("button", { name: "Free Guide" }).click();
  const lead = page.getByRole("dialog", { name: "Free Guide" });
  await lead.getByLabel("Email address").fill(email);
  await lead.getByRole("button", { name: "Send Download Link" }).click();
  await expect(lead.getByRole("alert")).toHaveText(LEAD_MAIL_TEXTS.recipientCap);
  await expect(lead.getByRole("heading", { name: "Check your email" })).toBeHidden();
  expect(readOutbox(E2E.outboxDir).filter((m) => m.to === email)).toEqual([]);
});
