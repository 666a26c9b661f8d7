/**
 * The one text rule (core/text-rule.ts, ADR 095), and every free-text field of every schema that
 * takes one: single-line fields refuse line breaks, multi-line fields keep them as LF, and both
 * refuse invisible characters, with the rule's messages.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { UpgradeRequestBodySchema } from "#api/routes/upgrade.ts";
import { LinkListInputSchema } from "#core/dashboard-schemas.ts";
import { LinkInputSchema } from "#core/link-input.ts";
import { CancelSubscriptionSchema } from "#core/schemas/affiliate.ts";
import { cardFormSchema } from "#core/schemas/billing.ts";
import { ContactMessageSchema } from "#core/schemas/contact-site.ts";
import { ProfileTextSchema } from "#core/schemas/profile.ts";
import { PageReportSchema } from "#core/schemas/visitor.ts";
import { multiLine, singleLine, TEXT_MESSAGES } from "#core/text-rule.ts";

/** Characters no text field accepts: NUL, other C0 and C1 controls, DEL, bidi overrides and isolates, a lone surrogate. */
const INVISIBLE = ["\u0000", "\u0007", "\u000b", "\u000c", "\u001b", "\u007f", "\u0085", "\u009b", "\u202a", "\u202e", "\u2066", "\u2069", "\ud800", "\udfff"];
/** Line breaks: refused in one line, kept as LF in many. */
const BREAKS = ["\n", "\r", "\r\n", "\u2028", "\u2029"];
/** Text that is fine anywhere: emoji (with joiners), right-to-left text with its marks, accents, markup-looking text. */
const FINE = ["👩‍👩‍👧 family", "שלום\u200f עולם", "Zoë & Björk", "<b>not markup</b>", "a\u200bb", "x\u00a0y"];

const SCHEMA_DATE = new Date("2026-06-01T12:00:00Z");

interface Field {
  name: string;
  kind: "single" | "multi";
  schema: z.ZodType;
  /** A valid body with `v` in the field. */
  body(v: string): unknown;
  /** The field's path in the schema's issues. */
  path: string;
  /** The field's parsed value. */
  read(out: unknown): unknown;
}

const link = (type: string, data: (v: string) => Record<string, string>, base: Record<string, string>): ((v: string) => unknown) => (v) => ({ linkType: type, title: "T", ...base, data: data(v) });
const at = (...keys: string[]) => (out: unknown) => keys.reduce((o, k) => (o as Record<string, unknown>)[k], out);

const FIELDS: Field[] = [
  { name: "link title", kind: "single", schema: LinkInputSchema, body: (v) => ({ linkType: "label", title: v }), path: "title", read: at("title") },
  { name: "text link text", kind: "multi", schema: LinkInputSchema, body: link("text_link", (v) => ({ text: v, url: "https://a.example" }), {}), path: "data.text", read: at("data", "text") },
  { name: "donation message", kind: "multi", schema: LinkInputSchema, body: link("donation", (v) => ({ message: v }), { url: "https://a.example" }), path: "data.message", read: at("data", "message") },
  { name: "lead description", kind: "multi", schema: LinkInputSchema, body: link("lead_magnet", (v) => ({ description: v }), {}), path: "data.description", read: at("data", "description") },
  { name: "card name", kind: "single", schema: LinkInputSchema, body: link("vcf", (v) => ({ name: v }), {}), path: "data.name", read: at("data", "name") },
  { name: "card phone", kind: "single", schema: LinkInputSchema, body: link("vcf", (v) => ({ name: "Ada", phone: v }), {}), path: "data.phone", read: at("data", "phone") },
  { name: "card organization", kind: "single", schema: LinkInputSchema, body: link("vcf", (v) => ({ name: "Ada", organization: v }), {}), path: "data.organization", read: at("data", "organization") },
  { name: "list title", kind: "single", schema: LinkListInputSchema, body: (v) => ({ title: v }), path: "title", read: at("title") },
  { name: "display name", kind: "single", schema: ProfileTextSchema, body: (v) => ({ displayName: v }), path: "displayName", read: at("displayName") },
  { name: "SEO title", kind: "single", schema: ProfileTextSchema, body: (v) => ({ seoTitle: v }), path: "seoTitle", read: at("seoTitle") },
  { name: "bio", kind: "multi", schema: ProfileTextSchema, body: (v) => ({ bio: v }), path: "bio", read: at("bio") },
  { name: "meta description", kind: "multi", schema: ProfileTextSchema, body: (v) => ({ seoDescription: v }), path: "seoDescription", read: at("seoDescription") },
  { name: "long-form text", kind: "multi", schema: ProfileTextSchema, body: (v) => ({ longFormText: v }), path: "longFormText", read: at("longFormText") },
  { name: "contact name", kind: "single", schema: ContactMessageSchema, body: (v) => ({ name: v, email: "a@example.com", message: "m" }), path: "name", read: at("name") },
  { name: "contact message", kind: "multi", schema: ContactMessageSchema, body: (v) => ({ name: "n", email: "a@example.com", message: v }), path: "message", read: at("message") },
  { name: "report details", kind: "multi", schema: PageReportSchema, body: (v) => ({ username: "ada", reason: "spam", details: v }), path: "details", read: at("details") },
  { name: "cancel reason", kind: "multi", schema: CancelSubscriptionSchema, body: (v) => ({ reason: "Other", otherText: v }), path: "otherText", read: at("reason") },
  { name: "cardholder name", kind: "single", schema: cardFormSchema(SCHEMA_DATE), body: (v) => ({ number: "4242 4242 4242 4242", expiry: "12 / 30", cvc: "123", name: v }), path: "name", read: at("name") },
  { name: "upgrade reason", kind: "single", schema: UpgradeRequestBodySchema, body: (v) => ({ feature: "seo_settings", reason: v }), path: "reason", read: at("reason") },
];

function issuesOf(schema: z.ZodType, body: unknown): Record<string, string> {
  const r = schema.safeParse(body);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join("."), i.message]));
}

describe("the text rule", () => {
  it("single-line: trims, makes tabs spaces, refuses line breaks and invisible characters", () => {
    const s = singleLine();
    expect(s.parse("  Ada\tLovelace \t")).toBe("Ada Lovelace");
    for (const b of BREAKS) expect(issuesOf(s, `a${b}b`), JSON.stringify(b)).toEqual({ "": TEXT_MESSAGES.oneLine });
    for (const c of INVISIBLE) expect(issuesOf(s, `a${c}b`), JSON.stringify(c)).toEqual({ "": TEXT_MESSAGES.invisible });
    for (const t of FINE) expect(s.parse(t)).toBe(t);
  });

  it("multi-line: trims, makes every line break LF, keeps tabs, refuses invisible characters", () => {
    const m = multiLine();
    expect(m.parse(" one\r\ntwo\rthree\u2028four\u2029five\n\tsix ")).toBe("one\ntwo\nthree\nfour\nfive\n\tsix");
    for (const c of INVISIBLE) expect(issuesOf(m, `a${c}b`), JSON.stringify(c)).toEqual({ "": TEXT_MESSAGES.invisible });
    for (const t of FINE) expect(m.parse(t)).toBe(t);
  });

  it.each(FIELDS.map((f) => [f.name, f] as const))("%s follows it", (_name, f) => {
    expect(f.read(f.schema.parse(f.body("Fine\ttext")))).toBe(f.kind === "single" ? "Fine text" : "Fine\ttext");
    for (const c of INVISIBLE) expect(issuesOf(f.schema, f.body(`a${c}b`)), JSON.stringify(c)).toEqual({ [f.path]: TEXT_MESSAGES.invisible });
    for (const b of BREAKS) {
      if (f.kind === "single") expect(issuesOf(f.schema, f.body(`a${b}b`)), JSON.stringify(b)).toEqual({ [f.path]: TEXT_MESSAGES.oneLine });
      else expect(f.read(f.schema.parse(f.body(`a${b}b`))), JSON.stringify(b)).toBe("a\nb");
    }
  });
});
