/**
 * An invoice as a PDF (issue 23, ADR 103), drawn with pdfkit from the same facts as the printable
 * page: the seller, who was billed, the line, net, tax and gross. The standard Helvetica font needs
 * no file of ours and covers Western European text (Windows-1252); any other character prints as "?"
 * (the printable page shows every character).
 */
import { formatTaxRate } from "#core/invoice.ts";
import { formatMoney, INVOICE_STATUS_LABELS } from "#core/schemas/billing.ts";
import type { getInvoice } from "./billing.ts";

export type InvoiceDocument = ReturnType<typeof getInvoice>;

/** Windows-1252's characters beyond Latin-1 (what the standard fonts can draw there). */
const CP1252_EXTRA = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ";

/** Text the standard fonts can draw: anything else (and any control character) becomes "?". */
export function drawable(text: string): string {
  return Array.from(text, (ch) => {
    const c = ch.codePointAt(0)!;
    return (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff) || CP1252_EXTRA.includes(ch) ? ch : "?";
  }).join("");
}

const day = (iso: string) => new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

export async function invoicePdf(data: InvoiceDocument): Promise<Buffer> {
  // pdfkit loads on the first invoice, not with every process (ADR 253).
  const { default: PDFDocument } = await import("pdfkit");
  const { invoice: inv, seller, totals, billedTo } = data;
  const number = inv.number ?? inv.id;
  const doc = new PDFDocument({
    size: "A4",
    margin: 56,
    info: { Title: `Invoice ${number}`, Author: drawable(seller.name), Subject: drawable(inv.description), CreationDate: new Date(inv.date) },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (b: Buffer) => chunks.push(b));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const text = (s: string, opts: PDFKit.Mixins.TextOptions = {}) => doc.text(drawable(s), opts);

  // Seller on the left, the invoice's number and status on the right.
  const top = doc.y;
  doc.font("Helvetica-Bold").fontSize(18);
  text(seller.name, { width: width * 0.6 });
  doc.font("Helvetica").fontSize(10);
  for (const line of seller.address) text(line, { width: width * 0.6 });
  if (seller.taxId) text(`Tax ID: ${seller.taxId}`, { width: width * 0.6 });
  const afterSeller = doc.y;
  doc.font("Helvetica-Bold").fontSize(18).text("Invoice", left, top, { width, align: "right" });
  doc.font("Helvetica").fontSize(10);
  text(number, { width, align: "right" });
  text(INVOICE_STATUS_LABELS[inv.status], { width, align: "right" });
  doc.y = Math.max(doc.y, afterSeller) + 20;

  if (data.testMode) {
    doc.font("Helvetica-Bold");
    text("Test mode: no money was charged.", { width });
    doc.font("Helvetica").moveDown();
  }

  // Who was billed, and when.
  const partiesTop = doc.y;
  doc.font("Helvetica-Bold");
  text("Billed to", { width: width / 2 });
  doc.font("Helvetica");
  text(billedTo.displayName || billedTo.username, { width: width / 2 });
  text(`@${billedTo.username}`, { width: width / 2 });
  if (billedTo.email) text(billedTo.email, { width: width / 2 });
  const afterBilled = doc.y;
  doc.font("Helvetica-Bold").text("Date of issue", left + width / 2, partiesTop, { width: width / 2, align: "right" });
  doc.font("Helvetica");
  text(day(inv.date), { width: width / 2, align: "right" });
  if (inv.paidAt) {
    doc.font("Helvetica-Bold").text("Paid on", { width: width / 2, align: "right" });
    doc.font("Helvetica");
    text(day(inv.paidAt), { width: width / 2, align: "right" });
  }
  doc.x = left;
  doc.y = Math.max(doc.y, afterBilled) + 24;

  // The line and the totals: label on the left part, amount right-aligned.
  const row = (label: string, amount: string, bold = false) => {
    const y = doc.y;
    doc.font(bold ? "Helvetica-Bold" : "Helvetica");
    text(label, { width: width - 110 });
    const below = doc.y;
    doc.text(amount, left + width - 100, y, { width: 100, align: "right" });
    doc.x = left;
    doc.y = Math.max(below, doc.y) + 4;
  };
  const rule = () => {
    doc.moveTo(left, doc.y).lineTo(left + width, doc.y).lineWidth(0.5).strokeColor("#94a3b8").stroke();
    doc.y += 6;
  };
  row("Description", "Amount", true);
  rule();
  row(inv.description, formatMoney(inv.amountCents));
  if (inv.periodStart && inv.periodEnd) {
    doc.fontSize(9).fillColor("#475569");
    text(`${day(inv.periodStart)} to ${day(inv.periodEnd)}`, { width: width - 110 });
    doc.fontSize(10).fillColor("black");
    doc.y += 4;
  }
  rule();
  row("Net", formatMoney(totals.netCents));
  row(`Tax (${formatTaxRate(totals.taxRateBp)})`, formatMoney(totals.taxCents));
  row("Total (USD)", formatMoney(totals.grossCents), true);
  if (inv.status === "paid" || inv.status === "open") row("Amount due", formatMoney(inv.status === "paid" ? 0 : totals.grossCents));
  if (inv.paymentMethod) {
    doc.moveDown();
    text(`Paid with ${inv.paymentMethod}.`, { width });
  }
  doc.end();
  return done;
}

/** The download's file name: the invoice number (or id), nothing a header could be confused by. */
export const invoicePdfFileName = (data: InvoiceDocument): string => `Invoice-${(data.invoice.number ?? data.invoice.id).replace(/[^A-Za-z0-9_-]/g, "")}.pdf`;
