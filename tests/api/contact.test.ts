import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { contactMessages } from "#db/schema.ts";
import { CONTACT_RATE_MAX } from "#api/routes/contact.ts";
import { createTestApp, sameOrigin, type TestApp } from "#tests/support/app.ts";

let t: TestApp;
beforeEach(() => {
  t = createTestApp({ CONTACT_TO: "help@plinth.test" });
});
afterEach(() => t.close());

const post = (body: unknown, headers = sameOrigin()) =>
  t.app.request("/api/contact", { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
const stored = () => t.deps.db.select().from(contactMessages).all();

describe("POST /api/contact", () => {
  it("stores and e-mails a message", async () => {
    const res = await post({ name: "  Ada  ", email: "ada@example.com", message: "Hello there" });
    expect(res.status).toBe(201);
    expect(stored()).toMatchObject([{ name: "Ada", email: "ada@example.com", message: "Hello there" }]);
    const mail = t.outbox();
    expect(mail).toHaveLength(1);
    expect(mail[0]).toContain("help@plinth.test");
    expect(mail[0]).toContain("Hello there");
  });

  it("refuses missing, malformed and oversized input with field messages, storing nothing", async () => {
    const missing = await post({});
    expect(missing.status).toBe(400);
    const body = (await missing.json()) as { error: { fields: Record<string, string> } };
    expect(body.error.fields).toMatchObject({ name: "Name is required", email: "Email is required", message: "Message is required" });
    const bad = await post({ name: "A", email: "javascript:alert(1)", message: "x" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.fields.email).toBe("Please enter a valid email address");
    expect((await post({ name: "A", email: "a@b.co", message: "x".repeat(5001) })).status).toBe(400);
    expect((await post("{not json")).status).toBe(400);
    expect((await post({ name: "A", email: "a@b.co", message: "x".repeat(70_000) })).status).toBe(413);
    expect(stored()).toHaveLength(0);
    expect(t.outbox()).toHaveLength(0);
  });

  it("keeps scripts as plain text and refuses cross-origin posts", async () => {
    const ok = await post({ name: "<script>alert(1)</script>", email: "x@example.com", message: "<img src=x onerror=alert(1)>" });
    expect(ok.status).toBe(201);
    expect(stored()[0]?.name).toBe("<script>alert(1)</script>");
    const cross = await post({ name: "A", email: "a@b.co", message: "hi" }, { "Content-Type": "application/json", "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" });
    expect(cross.status).toBe(403);
    expect(stored()).toHaveLength(1);
  });

  it("rate-limits per client", async () => {
    for (let i = 0; i < CONTACT_RATE_MAX; i++) expect((await post({ name: "A", email: "a@b.co", message: `m${i}` })).status).toBe(201);
    const limited = await post({ name: "A", email: "a@b.co", message: "again" });
    expect(limited.status).toBe(429);
    expect(stored()).toHaveLength(CONTACT_RATE_MAX);
  });
});
