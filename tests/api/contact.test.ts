import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { contactMessages } from "#db/schema.ts";
import { CONTACT_RATE_LIMITED_MESSAGE, CONTACT_RATE_MAX } from "#api/routes/contact.ts";
import { createServerApp } from "#api/site.ts";
import { CONTACT_MESSAGE_MAX, CONTACT_NAME_MAX } from "#core/schemas/contact-site.ts";
import { createTestApp, sameOrigin, type TestApp } from "#tests/support/app.ts";

let t: TestApp;
beforeEach(() => {
  t = createTestApp({ CONTACT_TO: "help@plinth.test" });
});
afterEach(() => t.close());

const post = (body: unknown, headers: Record<string, string> = sameOrigin(), app = t.app) =>
  app.request("/api/contact", { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
const stored = () => t.deps.db.select().from(contactMessages).all();
const fieldsOf = async (res: Response) => ((await res.json()) as { error: { fields?: Record<string, string> } }).error.fields ?? {};

describe("POST /api/contact", () => {
  it("stores and e-mails a message the team can answer", async () => {
    const res = await post({ name: "  Ada  ", email: "ada@example.com", message: "Hello there" });
    expect(res.status).toBe(201);
    expect(stored()).toMatchObject([{ name: "Ada", email: "ada@example.com", message: "Hello there" }]);
    const mail = t.outbox();
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatch(/^To: help@plinth\.test$/m);
    expect(mail[0]).toMatch(/^Reply-To: ada@example\.com$/m);
    expect(mail[0]).toMatch(/^Subject: Contact form: Ada$/m);
    expect(mail[0]).toContain("Hello there");
    expect(mail[0]).toContain(stored()[0]!.id);
  });

  it("refuses missing, malformed and oversized input with field messages, storing nothing", async () => {
    expect(await fieldsOf(await post({}))).toEqual({ name: "Name is required", email: "Email is required", message: "Message is required" });
    expect(await fieldsOf(await post({ name: "   ", email: "  ", message: "\n\t" }))).toEqual({
      name: "Name is required",
      email: "Email is required",
      message: "Message is required",
    });
    expect(await fieldsOf(await post({ name: 42, email: ["a@b.co"], message: { x: 1 } }))).toEqual({
      name: "Name is required",
      email: "Email is required",
      message: "Message is required",
    });
    expect((await fieldsOf(await post({ name: "A", email: "javascript:alert(1)", message: "x" }))).email).toBe("Please enter a valid email address");
    expect((await fieldsOf(await post({ name: "A", email: "a@b.co\r\nBcc: victim@example.com", message: "x" }))).email).toBe("Please enter a valid email address");
    expect((await fieldsOf(await post({ name: "A", email: `${"a".repeat(250)}@b.co`, message: "x" }))).email).toBe("Please enter a valid email address");
    expect((await fieldsOf(await post({ name: "A".repeat(CONTACT_NAME_MAX + 1), email: "a@b.co", message: "x" }))).name).toBe(
      `Name must be at most ${CONTACT_NAME_MAX} characters`,
    );
    expect((await fieldsOf(await post({ name: "A", email: "a@b.co", message: "x".repeat(CONTACT_MESSAGE_MAX + 1) }))).message).toBe(
      `Message must be at most ${CONTACT_MESSAGE_MAX} characters`,
    );
    expect((await post("{not json")).status).toBe(400);
    expect((await post("[]")).status).toBe(400);
    expect((await post({ name: "A", email: "a@b.co", message: "hi" }, { ...sameOrigin(), "Content-Type": "text/plain" })).status).toBeGreaterThanOrEqual(400);
    expect((await post({ name: "A", email: "a@b.co", message: "x".repeat(70_000) })).status).toBe(413);
    expect(stored()).toHaveLength(0);
    expect(t.outbox()).toHaveLength(0);
  });

  it("keeps scripts as plain text, keeps the subject on one line, and refuses cross-origin posts", async () => {
    // A line break in the name (it goes into the subject) is refused, not folded: nothing is stored or sent.
    const broken = await post({ name: "Ada\r\nBcc: victim@example.com", email: "x@example.com", message: "hi" });
    expect(broken.status).toBe(400);
    expect(await fieldsOf(broken)).toEqual({ name: "Please keep this to one line" });
    expect(stored()).toHaveLength(0);
    expect(t.outbox()).toHaveLength(0);
    const ok = await post({ name: "<script>alert(1)</script>\tBcc: victim@example.com", email: "x@example.com", message: "<img src=x onerror=alert(1)>\r\nline two" });
    expect(ok.status).toBe(201);
    expect(stored()[0]).toMatchObject({ name: "<script>alert(1)</script> Bcc: victim@example.com", message: "<img src=x onerror=alert(1)>\nline two" });
    const mail = t.outbox()[0]!;
    const headers = mail.slice(0, mail.indexOf("\n\n"));
    expect(headers).not.toMatch(/^Bcc:/im);
    expect(headers).not.toMatch(/Content-Type: text\/html/i);
    expect(mail).not.toMatch(/^Bcc:/im);
    const cross = await post({ name: "A", email: "a@b.co", message: "hi" }, { "Content-Type": "application/json", "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" });
    expect(cross.status).toBe(403);
    expect(stored()).toHaveLength(1);
  });

  it("rate-limits per client with a clear message", async () => {
    for (let i = 0; i < CONTACT_RATE_MAX; i++) expect((await post({ name: "A", email: "a@b.co", message: `m${i}` })).status).toBe(201);
    const limited = await post({ name: "A", email: "a@b.co", message: "again" });
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { error: { message: string } }).error.message).toBe(CONTACT_RATE_LIMITED_MESSAGE);
    expect(stored()).toHaveLength(CONTACT_RATE_MAX);
    expect(t.outbox()).toHaveLength(CONTACT_RATE_MAX);
  });

  it("keeps the message and answers 201 when the mail server fails", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const app = createServerApp({ ...t.deps, mailer: { send: () => Promise.reject(new Error("SMTP down")) } });
    const res = await post({ name: "Ada", email: "ada@example.com", message: "Still here?" }, sameOrigin(), app);
    expect(res.status).toBe(201);
    expect(stored()).toMatchObject([{ message: "Still here?" }]);
    expect(logged).toHaveBeenCalledWith("Contact message stored but not e-mailed", expect.stringMatching(new RegExp(`^(?=.*"messageId":"${stored()[0]!.id}")(?=.*SMTP down)`)));
  });
});
