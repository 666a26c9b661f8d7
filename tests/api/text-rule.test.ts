/**
 * The text rule at the API (ADR 095): NUL, other control characters and bidi overrides are refused in
 * every free-text field an owner or a visitor sends, line breaks in one-line fields too, each with a
 * 400 and the rule's message and nothing stored; what is accepted reaches the page and the e-mails
 * without a control character.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEXT_MESSAGES } from "#core/text-rule.ts";
import { contactMessages, linkLists, links, pageReports, userProfiles } from "#db/schema.ts";
import { createTestApp, sameOrigin, type TestApp } from "#tests/support/app.ts";
import { parseEml } from "#tests/support/mail.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
let owner: ApiOwner;
beforeAll(() => {
  t = createTestApp({ CONTACT_TO: "help@plinth.test" });
  owner = createApiOwner(t, "trial");
});
afterAll(() => t.close());

/** Characters that must never reach a page, a file or an e-mail, whichever field they came in. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000d\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const INVISIBLE = ["\u0000", "\u001b", "\u202e"];

async function refusal(res: Response): Promise<{ status: number; fields: Record<string, string> }> {
  const body = (await res.json()) as { error?: { fields?: Record<string, string> } };
  return { status: res.status, fields: body.error?.fields ?? {} };
}

const state = () => {
  const db = t.deps.db;
  return JSON.stringify([
    db.select().from(links).where(eq(links.userId, owner.userId)).all(),
    db.select().from(linkLists).where(eq(linkLists.userId, owner.userId)).all(),
    db.select().from(userProfiles).where(eq(userProfiles.userId, owner.userId)).all(),
    db.select().from(pageReports).all(),
    db.select().from(contactMessages).all(),
  ]);
};

describe("free text at the API", () => {
  it("refuses control characters and bidi overrides in every owner field, and line breaks in one-line fields, storing nothing", async () => {
    const before = state();
    const cases: [method: string, path: string, body: (v: string) => unknown, field: string, oneLine: boolean][] = [
      ["POST", "/api/links", (v) => ({ linkType: "standard_url", title: v, url: "https://a.example/" }), "title", true],
      ["POST", "/api/links", (v) => ({ linkType: "donation", title: "Tip", url: "https://a.example/", data: { message: v } }), "data.message", false],
      ["POST", "/api/links", (v) => ({ linkType: "lead_magnet", title: "Guide", data: { description: v } }), "data.description", false],
      ["POST", "/api/links", (v) => ({ linkType: "vcf", title: "Card", data: { name: v } }), "data.name", true],
      ["POST", "/api/link-lists", (v) => ({ title: v }), "title", true],
      ["PATCH", "/api/profile/text", (v) => ({ displayName: v }), "displayName", true],
      ["PATCH", "/api/profile/text", (v) => ({ seoTitle: v }), "seoTitle", true],
      ["PATCH", "/api/profile/text", (v) => ({ bio: v }), "bio", false],
      ["PATCH", "/api/profile/text", (v) => ({ longFormText: v }), "longFormText", false],
    ];
    for (const [method, path, body, field, oneLine] of cases) {
      for (const c of INVISIBLE) {
        const r = await refusal(await owner.edit(method, path, body(`a${c}b`)));
        expect(r, `${method} ${path} ${field} ${JSON.stringify(c)}`).toEqual({ status: 400, fields: { [field]: TEXT_MESSAGES.invisible } });
      }
      if (oneLine) {
        const r = await refusal(await owner.edit(method, path, body("Two\r\nlines")));
        expect(r, `${method} ${path} ${field} CRLF`).toEqual({ status: 400, fields: { [field]: TEXT_MESSAGES.oneLine } });
      }
    }
    expect(state()).toBe(before);
  });

  it("keeps line breaks of multi-line fields as LF, and what it accepts reaches the page and e-mails with no control character", async () => {
    expect((await owner.edit("PATCH", "/api/profile/text", { displayName: "Ada\tLovelace", bio: "Line one\r\nLine two\rLine three" })).status).toBe(200);
    const profile = t.deps.db.select().from(userProfiles).where(eq(userProfiles.userId, owner.userId)).get()!;
    expect([profile.displayName, profile.bio]).toEqual(["Ada Lovelace", "Line one\nLine two\nLine three"]);
    const lead = (await (await owner.call("POST", "/api/links", { linkType: "lead_magnet", title: "Free\tguide", data: { description: "One\r\ntwo", fileUrl: "https://files.example/g.pdf" } })).json()) as { link: { id: string } };
    expect((await owner.call("POST", "/api/publish")).status).toBe(200);
    const html = readFileSync(join(t.deps.env.PUBLISHED_DIR, owner.username, "index.html"), "utf8");
    expect(html).toContain("Ada Lovelace");
    expect(html).not.toMatch(CONTROL);

    // A visitor: the report's details and the lead e-mail.
    const visitor = (path: string, body: unknown) => t.app.request(path, { method: "POST", headers: { "Content-Type": "application/json", "X-Forwarded-For": "203.0.113.9" }, body: JSON.stringify(body) });
    const report = { username: owner.username, reason: "spam" };
    expect(await refusal(await visitor("/api/visitor/report", { ...report, details: "a\u0000b" }))).toEqual({ status: 400, fields: { details: TEXT_MESSAGES.invisible } });
    expect(t.deps.db.select().from(pageReports).all()).toHaveLength(0);
    expect((await visitor("/api/visitor/report", { ...report, details: "Seen\r\nhere" })).status).toBe(204);
    expect(t.deps.db.select({ details: pageReports.details }).from(pageReports).all()).toEqual([{ details: "Seen\nhere" }]);
    expect((await visitor("/api/visitor/lead", { linkId: lead.link.id, email: "v@example.com" })).status).toBe(200);
    const mails = t.outbox();
    expect(mails.length).toBe(2);
    for (const m of mails) expect(m.replace(/\n/g, ""), m.slice(0, 200)).not.toMatch(CONTROL);
    // The tab in the title became a space, and the title reaches the mail as the owner's quoted words.
    expect(mails.map((m) => parseEml(m).text).some((text) => text.includes("> Free guide"))).toBe(true);

    // The contact form: its message keeps lines, as LF.
    const contact = { name: "Ada", email: "ada@example.com" };
    const send = (message: string) => t.app.request("/api/contact", { method: "POST", headers: sameOrigin({ "X-Forwarded-For": "203.0.113.10" }), body: JSON.stringify({ ...contact, message }) });
    expect(await refusal(await send("hi\u0007"))).toEqual({ status: 400, fields: { message: TEXT_MESSAGES.invisible } });
    expect((await send("Hello\r\nthere")).status).toBe(201);
    expect(t.deps.db.select({ message: contactMessages.message }).from(contactMessages).all()).toEqual([{ message: "Hello\nthere" }]);
  });
});
