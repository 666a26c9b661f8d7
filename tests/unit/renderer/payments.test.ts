/**
 * Tip and Paid download items on the public page (ADR 231): plain forms posting to Plinth's checkout
 * endpoint on the API's origin, amounts drawn from the stored settings only, nothing about the sold
 * file on the page, hostile text escaped, the CSP allowing forms to the API only on a page that
 * takes payments, and a Lite page hiding them.
 */
import { describe, expect, it } from "vitest";
import { all, byTag, normText, parseHtml, type El } from "./html.ts";
import { API_ORIGIN, link, LITE, render, snapshot } from "./fixtures.ts";

const page = (...a: Parameters<typeof render>) => parseHtml(render(...a).html);
const cspOf = (doc: El) => all(doc, (e) => e.tag === "meta" && e.attrs["http-equiv"] === "Content-Security-Policy")[0]!.attrs.content!;
const formAction = (doc: El) => cspOf(doc).split("; ").find((d) => d.startsWith("form-action"))!;

const tip = link({ linkType: "tip", title: "Buy me a coffee", url: "#", data: { currency: "usd", amounts: "300,500,1000", custom: "on", min: "100", max: "20000", message: "Thank you!" } });
const download = link({ linkType: "paid_download", title: "Preset pack", url: "#", data: { currency: "eur", price: "900", file: "file_secret_id_123", fileName: "presets.zip", description: "Twelve presets", cover: "/media/ab/cover.jpg" } });

describe("payment items on the page", () => {
  it("draws a Tip as a form to the checkout endpoint with one button per suggested amount and an amount of one's own", () => {
    const doc = page(snapshot({}, [tip]));
    const form = all(doc, (e) => e.tag === "form" && e.attrs.class === "pay")[0]!;
    expect(form.attrs.method).toBe("post");
    expect(form.attrs.action).toBe(`${API_ORIGIN}/api/pay/${tip.id}`);
    const buttons = all(form, (e) => e.tag === "button");
    expect(buttons.map((b) => [normText(b), b.attrs.name, b.attrs.value])).toEqual([
      ["$3.00", "amount", "300"],
      ["$5.00", "amount", "500"],
      ["$10.00", "amount", "1000"],
      ["Tip", "amount", "custom"],
    ]);
    const labels = all(form, (e) => e.tag === "label").map(normText);
    expect(labels).toContain("Other amount ($1.00 – $200.00)");
    expect(labels).toContain("Leave a note (optional)");
    const note = all(form, (e) => e.tag === "textarea")[0]!;
    expect(note.attrs.maxlength).toBe("200");
    expect(formAction(doc)).toBe(`form-action ${API_ORIGIN}`);
  });

  it("draws a Paid download with its cover, description and price, and nothing of the file", () => {
    const html = render(snapshot({}, [download])).html;
    const doc = parseHtml(html);
    const form = all(doc, (e) => e.tag === "form" && e.attrs.class === "pay")[0]!;
    expect(form.attrs.action).toBe(`${API_ORIGIN}/api/pay/${download.id}`);
    expect(normText(all(form, (e) => e.tag === "button")[0]!)).toBe("Buy · €9.00");
    expect(all(form, (e) => e.tag === "img")[0]!.attrs.src).toBe("/media/ab/cover.jpg");
    expect(html).not.toContain("file_secret_id_123");
    expect(html).not.toContain("presets.zip");
  });

  it("draws nothing for stored settings that are not whole, and escapes hostile titles", () => {
    const broken = [
      link({ linkType: "tip", data: { currency: "usd", amounts: "", custom: "off", min: "100", max: "500" } }),
      link({ linkType: "tip", data: { currency: "xxx", amounts: "300", custom: "off", min: "100", max: "500" } }),
      link({ linkType: "tip", data: { currency: "usd", amounts: "50", custom: "off", min: "100", max: "500" } }),
      link({ linkType: "tip", data: { currency: "usd", amounts: "300,400,450,500", custom: "off", min: "100", max: "500" } }),
      link({ linkType: "paid_download", data: { currency: "usd", price: "1.5", file: "f" } }),
      link({ linkType: "paid_download", data: { currency: "usd", price: "900" } }),
    ];
    const doc = page(snapshot({}, broken));
    expect(all(doc, (e) => e.tag === "form" && e.attrs.class === "pay")).toHaveLength(0);
    expect(formAction(doc)).toBe("form-action 'none'");
    const hostile = link({ linkType: "tip", title: `<script>alert(1)</script>"'`, data: { currency: "usd", amounts: "300", custom: "off", min: "100", max: "500" } });
    const html = render(snapshot({}, [hostile])).html;
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("keeps form-action 'none' on a page without payments, and hides payment items on a Lite page", () => {
    expect(formAction(page(snapshot({}, [link()])))).toBe("form-action 'none'");
    const doc = page(snapshot({}, [tip, download, link({ title: "Plain" })]), LITE);
    expect(all(doc, (e) => e.tag === "form" && e.attrs.class === "pay")).toHaveLength(0);
    expect(byTag(doc, "main")[0] && normText(byTag(doc, "main")[0]!)).toContain("Plain");
    expect(formAction(doc)).toBe("form-action 'none'");
  });
});
