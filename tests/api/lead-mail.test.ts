/**
 * The lead-magnet e-mail is not a relay (ADR 092): it goes out only for a lead magnet the published
 * page shows now, with the published title and file; at most so many per page and per recipient in
 * a day, counted in the database; a note from the creator in words Plinth fixes, the owner's text
 * quoted as theirs. The clock
 * is injected through AppDeps.now.
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { creatorNameOf, LEAD_MAIL_LIMITS, LEAD_MAIL_TEXTS } from "#api/services/lead-mail.ts";
import { createServerApp } from "#api/site.ts";
import { newId } from "#db/ids.ts";
import { collectedLeads, leadMailSends, links, userProfiles } from "#db/schema.ts";
import { publishPage } from "#renderer/publish.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { readOutbox } from "#tests/support/mail.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

const DAY = 24 * 60 * 60 * 1000;
const FILE = "https://files.example/guide.pdf";

let t: TestApp;
let owner: ApiOwner;
let at: number;
let app: ReturnType<typeof createServerApp>;
let client = 0;
beforeEach(() => {
  t = createTestApp({ TRUST_PROXY: "1" });
  owner = createApiOwner(t, "trial");
  at = Date.now();
  app = createServerApp({ ...t.deps, now: () => new Date(at) });
});
afterEach(() => t.close());

/** A visitor's request, each from another address so the per-client limits stay out of the way. */
async function lead(linkId: string, email: string, on = app) {
  const res = await on.request("/api/visitor/lead", {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: "https://static.example", "X-Forwarded-For": `10.1.${(++client >> 8) & 255}.${client & 255}` },
    body: JSON.stringify({ linkId, email }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

function addLeadMagnet(over: Partial<typeof links.$inferInsert> = {}): string {
  const id = newId();
  t.deps.db
    .insert(links)
    .values({ id, userId: owner.userId, title: "Free Guide", url: "#", linkType: "lead_magnet", linkSpecificData: { description: "Ten tips for your garden", fileUrl: FILE }, ...over })
    .run();
  return id;
}
const edit = (id: string, set: Partial<typeof links.$inferInsert>) => t.deps.db.update(links).set(set).where(eq(links.id, id)).run();
const publish = () => expect(publishPage(t.deps.db, owner.userId, { publishedDir: t.deps.env.PUBLISHED_DIR, origin: t.deps.env.PUBLIC_ORIGIN, now: new Date(at) })).toMatchObject({ ok: true });
const mails = () => readOutbox(t.deps.env.OUTBOX_DIR);
const leadRows = () => t.deps.db.select().from(collectedLeads).all();
const sendRows = () => t.deps.db.select().from(leadMailSends).all();
const notFound = { status: 404, body: { error: { code: "not_found", message: "Link not found" } } };

describe("only what the published page shows", () => {
  it("refuses a lead magnet that was never published, however it is titled", async () => {
    publish();
    const id = addLeadMagnet({ title: "Security alert: verify your account now", linkSpecificData: { description: "Your account is locked", fileUrl: "https://evil.example/login" } });
    expect(await lead(id, "victim@example.com")).toEqual(notFound);
    expect(mails()).toEqual([]);
    expect(leadRows()).toEqual([]);
    expect(sendRows()).toEqual([]);
  });

  it("mails the published title, description and file, not a draft edit of them", async () => {
    const id = addLeadMagnet();
    publish();
    edit(id, { title: "Security alert: verify your account now", linkSpecificData: { description: "Log in at once", fileUrl: "https://evil.example/login" } });
    const res = await lead(id, "fan@example.com");
    expect(res).toEqual({ status: 200, body: { downloadUrl: FILE } });
    const [mail] = mails();
    expect(mail).toMatchObject({ to: "fan@example.com", subject: `Your download from @${owner.username}` });
    expect(mail!.text).toContain("> Free Guide\n>\n> Ten tips for your garden\n");
    expect(mail!.text).toContain(`\n${FILE}\n`);
    expect(mail!.text).not.toMatch(/Security alert|evil\.example|Log in at once/);
    expect(leadRows()).toMatchObject([{ email: "fan@example.com", linkTitle: "Free Guide", linkId: id }]);
  });

  it("refuses a link hidden, deleted or turned into another type in the published version, and one deleted from the draft", async () => {
    const hidden = addLeadMagnet({ isActive: false });
    const plain = addLeadMagnet({ linkType: "standard_url", url: "https://example.com/" });
    const gone = addLeadMagnet();
    publish();
    edit(hidden, { isActive: true });
    edit(plain, { linkType: "lead_magnet" });
    t.deps.db.delete(links).where(eq(links.id, gone)).run();
    for (const id of [hidden, plain, gone, "no-such-link"]) expect(await lead(id, "fan@example.com")).toEqual(notFound);
    expect(mails()).toEqual([]);
  });

  it("follows the published schedule on the injected clock", async () => {
    const id = addLeadMagnet({ scheduleStartTime: new Date(at + 60_000), scheduleEndTime: new Date(at + 120_000) });
    publish();
    expect(await lead(id, "early@example.com")).toEqual(notFound);
    at += 60_000;
    expect((await lead(id, "ontime@example.com")).status).toBe(200);
    at += 60_000;
    expect(await lead(id, "late@example.com")).toEqual(notFound);
    expect(mails().map((m) => m.to)).toEqual(["ontime@example.com"]);
  });

  it("stops when the trial ends and the page falls back to Lite, which shows no lead magnets", async () => {
    const id = addLeadMagnet();
    publish();
    t.deps.db.update(userProfiles).set({ trialEndsAt: new Date(at - 1) }).where(eq(userProfiles.userId, owner.userId)).run();
    expect(await lead(id, "fan@example.com")).toEqual(notFound);
  });
});

describe("the e-mail's words", () => {
  it("quotes the owner's text line by line without control or reordering characters", async () => {
    const id = addLeadMagnet({ title: "Guide\u202e\u0007", linkSpecificData: { description: "Line one\r\nSubject: forged\r\n\r\nLine \u0000three", fileUrl: FILE } });
    publish();
    expect((await lead(id, "fan@example.com")).status).toBe(200);
    const [mail] = mails();
    expect(mail!.text).toContain("Here is the download you asked for:\n\n> Guide\n>\n> Line one\n> Subject: forged\n>\n> Line three\n");
    expect(mail!.text).toContain("The file is on files.example, a site Plinth does not run.");
    expect(mail!.text).toContain(`To report the page, open ${t.deps.env.PUBLIC_ORIGIN}/${owner.username} and choose Report`);
    expect(mail!.text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
  });

  it("names the creator and their page, and reads as a note from them, with Plinth's footer", async () => {
    const id = addLeadMagnet();
    t.deps.db.update(userProfiles).set({ displayName: "Ada Lovelace" }).where(eq(userProfiles.userId, owner.userId)).run();
    publish();
    // A later draft name is not mailed: the published page's is.
    t.deps.db.update(userProfiles).set({ displayName: "Draft Name" }).where(eq(userProfiles.userId, owner.userId)).run();
    expect((await lead(id, "fan@example.com")).status).toBe(200);
    const [mail] = mails();
    const page = `${t.deps.env.PUBLIC_ORIGIN}/${owner.username}`;
    expect(mail!.subject).toBe(`Your download from Ada Lovelace (@${owner.username})`);
    // From the creator, at Plinth's own address: the name is theirs, the mailbox is not.
    expect(mail!.from).toBe("Ada Lovelace via Plinth <no-reply@plinth.localhost>");
    expect(mail!.text.replace(/\r\n/g, "\n")).toBe(
      [
        "Hi,",
        "",
        "Thanks for visiting my page. Here is the download you asked for:",
        "",
        "> Free Guide",
        ">",
        "> Ten tips for your garden",
        "",
        "Download:",
        FILE,
        "The file is on files.example, a site Plinth does not run.",
        "",
        `There is more on my page: ${page}`,
        "",
        `Ada Lovelace (@${owner.username})`,
        "",
        "--",
        `Plinth sent this email for @${owner.username}, because this address was entered on ${page}.`,
        `The quoted text and the download are @${owner.username}'s, in their own words (not Plinth's).`,
        "If you did not ask for this, you can ignore this email: nothing more will be sent because of it.",
        `To report the page, open ${page} and choose Report at the bottom.`,
      ].join("\n"),
    );
  });

  it("names the creator by their page's name when the display name carries an address, a link or a sentence", async () => {
    const id = addLeadMagnet();
    const hostile = [
      "Security alert: verify now",
      "Visit evil.example",
      "https://evil.example",
      "support@bank.example",
      "Ada\u202eecalevol",
      "Ada\r\nBcc: x@example.com",
      "<b>Ada</b>",
      "Call +1 (555) 0100 now!",
      "",
    ];
    for (const [i, displayName] of hostile.entries()) {
      t.deps.db.update(userProfiles).set({ displayName, updatedAt: new Date(at + i) }).where(eq(userProfiles.userId, owner.userId)).run();
      publish();
      expect((await lead(id, `fan${i}@example.com`)).status, displayName).toBe(200);
      const mail = mails().find((m) => m.to === `fan${i}@example.com`)!;
      expect(mail.subject, displayName).toBe(`Your download from @${owner.username}`);
      expect(mail.from, displayName).toBe(`"@${owner.username} via Plinth" <no-reply@plinth.localhost>`);
      expect(mail.text, displayName).toContain(`\n\n@${owner.username}\n\n--\n`);
      expect(mail.text, displayName).not.toMatch(/evil\.example|bank\.example|Security alert|Bcc|<b>|0100|\u202e/);
    }
    // Plain names, with accents, apostrophes and initials, are kept.
    expect(creatorNameOf("Zoë O'Brien-Smith", "zoe")).toBe("Zoë O'Brien-Smith");
    expect(creatorNameOf("J. R. R. Tolkien", "jrrt")).toBe("J. R. R. Tolkien");
    expect(creatorNameOf("Bäckerei & Café (Berlin)", "cafe")).toBe("Bäckerei & Café (Berlin)");
  });
});

describe("daily caps", () => {
  it("sends one address at most so many links a day, however it is written, and again the next day", async () => {
    const id = addLeadMagnet();
    publish();
    const { perRecipientPerDay } = LEAD_MAIL_LIMITS;
    const spellings = ["fan@example.com", "Fan@Example.com", "fan+1@example.com", "FAN+two@example.com"];
    for (let i = 0; i < perRecipientPerDay; i++) expect((await lead(id, spellings[i]!)).status).toBe(200);
    expect(await lead(id, spellings[perRecipientPerDay]!)).toEqual({ status: 429, body: { error: { code: "rate_limited", message: LEAD_MAIL_TEXTS.recipientCap } } });
    expect(mails()).toHaveLength(perRecipientPerDay);
    expect(leadRows()).toHaveLength(perRecipientPerDay);
    // Someone else is not held back.
    expect((await lead(id, "other@example.com")).status).toBe(200);

    at += DAY - 1;
    expect((await lead(id, "fan@example.com")).status).toBe(429);
    at += 1;
    expect((await lead(id, "fan@example.com")).status).toBe(200);
  });

  it("sends one page's links at most so many times a day, across a restart", async () => {
    const id = addLeadMagnet();
    publish();
    const { perPagePerDay } = LEAD_MAIL_LIMITS;
    for (let i = 0; i < perPagePerDay; i++) expect((await lead(id, `fan${i}@example.com`)).status).toBe(200);
    const capped = { status: 429, body: { error: { code: "rate_limited", message: LEAD_MAIL_TEXTS.pageCap } } };
    expect(await lead(id, "one-more@example.com")).toEqual(capped);
    // A restart (a new app over the same database) forgets nothing.
    const restarted = createServerApp({ ...t.deps, now: () => new Date(at) });
    expect(await lead(id, "one-more@example.com", restarted)).toEqual(capped);
    expect(mails()).toHaveLength(perPagePerDay);

    // Another page has its own allowance.
    const other = createApiOwner(t, "trial");
    const otherLink = newId();
    t.deps.db.insert(links).values({ id: otherLink, userId: other.userId, title: "Other", url: "#", linkType: "lead_magnet", linkSpecificData: { fileUrl: FILE } }).run();
    publishPage(t.deps.db, other.userId, { publishedDir: t.deps.env.PUBLISHED_DIR, origin: t.deps.env.PUBLIC_ORIGIN, now: new Date(at) });
    expect((await lead(otherLink, "one-more@example.com", restarted)).status).toBe(200);

    at += DAY;
    expect((await lead(id, "next-day@example.com", restarted)).status).toBe(200);
    // Sends older than a day are gone from the table.
    expect(sendRows().every((r) => r.sentAt.getTime() > at - DAY)).toBe(true);
  });

  it("does not count a send that failed, and stores no lead for it", async () => {
    const id = addLeadMagnet();
    publish();
    const failing = createServerApp({ ...t.deps, now: () => new Date(at), mailer: { send: () => Promise.reject(new Error("SMTP down")) } });
    for (let i = 0; i < LEAD_MAIL_LIMITS.perRecipientPerDay + 1; i++) {
      expect(await lead(id, "fan@example.com", failing)).toEqual({ status: 422, body: { error: { code: "unprocessable", message: "Failed to send download link. Please try again." } } });
    }
    expect(sendRows()).toEqual([]);
    expect(leadRows()).toEqual([]);
    expect((await lead(id, "fan@example.com")).status).toBe(200);
  });
});
