/**
 * Invoices as documents (issue 23, ADR 103): the one gap-free number sequence, the seller and the
 * tax kept on each invoice as it was issued, and what an invoice prints (the printable page and the
 * PDF read the same facts). Billing decides when an invoice exists; this module decides what it says.
 */
import { sql } from "drizzle-orm";
import { formatInvoiceNumber, invoiceTotals, type InvoiceTotals } from "#core/invoice.ts";
import type { Db } from "#db/client.ts";
import { invoiceSequence, invoices } from "#db/schema.ts";
import type { Seller } from "../env.server.ts";

type InvoiceRow = typeof invoices.$inferSelect;
type IssuedColumns = "number" | "sellerName" | "sellerAddress" | "sellerTaxId" | "taxRateBp";
export type NewInvoice = Omit<typeof invoices.$inferInsert, IssuedColumns>;

/**
 * The next number of the sequence. Only inside the IMMEDIATE transaction that writes the invoice:
 * the counter row is raised under the write lock, and a rollback takes the number back with the
 * invoice, so numbers are neither skipped nor given twice.
 */
export function nextInvoiceNumber(tx: Db): string {
  if (!tx.$client.inTransaction) throw new Error("An invoice number is given only inside the transaction that writes the invoice");
  const row = tx
    .insert(invoiceSequence)
    .values({ id: 1, last: 1 })
    .onConflictDoUpdate({ target: invoiceSequence.id, set: { last: sql`${invoiceSequence.last} + 1` } })
    .returning({ last: invoiceSequence.last })
    .get();
  return formatInvoiceNumber(row.last);
}

/** Writes a new invoice with the next number and the seller and tax rate of the day; returns the number. */
export function issueInvoice(tx: Db, seller: Seller, values: NewInvoice): string {
  const number = nextInvoiceNumber(tx);
  tx.insert(invoices)
    .values({
      ...values,
      number,
      sellerName: seller.name,
      sellerAddress: seller.address.length > 0 ? seller.address.join("\n") : null,
      sellerTaxId: seller.taxId,
      taxRateBp: seller.taxRateBp,
    })
    .run();
  return number;
}

export interface InvoiceParties {
  seller: { name: string; address: string[]; taxId: string | null };
  totals: InvoiceTotals;
}

/** Who sells and the totals, as the invoice was issued; an invoice from before they were kept prints today's configuration. */
export function invoiceParties(row: InvoiceRow, configured: Seller): InvoiceParties {
  const kept = row.sellerName !== null && row.taxRateBp !== null;
  const seller = kept
    ? { name: row.sellerName!, address: row.sellerAddress ? row.sellerAddress.split("\n") : [], taxId: row.sellerTaxId }
    : { name: configured.name, address: configured.address, taxId: configured.taxId };
  return { seller, totals: invoiceTotals(row.amountCents, kept ? row.taxRateBp! : configured.taxRateBp) };
}
