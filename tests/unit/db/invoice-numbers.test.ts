/**
 * One gap-free invoice number sequence (ADR 103): numbers are taken from a counter row inside the
 * IMMEDIATE transaction that writes the invoice, so processes writing invoices at once neither skip
 * nor repeat a number, and a transaction that rolls back gives its number back.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { issueInvoice, nextInvoiceNumber } from "#api/services/invoices.ts";
import { durably } from "#db/client.ts";
import { invoices, invoiceSequence } from "#db/schema.ts";
import { fileDatabase } from "#tests/support/file-database.ts";
import { bundleForNode } from "#tests/support/node-bundle.ts";

const { dir, db } = fileDatabase("plinth-invoice-numbers-");
const seller = { name: "Plinth Ltd", address: [], taxId: null, taxRateBp: 0 };

function runChild(script: string, tag: string, count: number): Promise<string> {
  const child = spawn(process.execPath, [script, join(dir, "db.sqlite"), tag, String(count)], { stdio: ["ignore", "pipe", "pipe"], cwd: join(import.meta.dirname, "../../..") });
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => (out += String(d)));
  child.stderr.on("data", (d) => (err += String(d)));
  return new Promise((resolve, reject) => child.on("exit", (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`child ${tag} exited with ${code}: ${err}`)))));
}

describe("invoice numbers", () => {
  it("are given only inside a transaction", () => {
    expect(() => nextInvoiceNumber(db)).toThrow(/inside the transaction/);
    expect(db.select().from(invoiceSequence).all()).toEqual([{ id: 1, last: 0 }]);
  });

  it("four processes issuing at once, some rolling back: PLN-000001 to the last, none skipped, none twice", async () => {
    const script = await bundleForNode(join(import.meta.dirname, "invoice-numbers-child.ts"));
    const perChild = 60;
    const outs = await Promise.all(["a", "b", "c", "d"].map((tag) => runChild(script, tag, perChild)));
    // Every third transaction rolled back: 40 of 60 kept per process.
    expect(outs).toEqual(["done 40", "done 40", "done 40", "done 40"]);
    const numbers = db.select({ number: invoices.number }).from(invoices).all().map((r) => r.number!).sort();
    expect(numbers).toHaveLength(160);
    expect(numbers).toEqual(Array.from({ length: 160 }, (_, i) => `PLN-${String(i + 1).padStart(6, "0")}`));
    expect(db.select().from(invoiceSequence).all()).toEqual([{ id: 1, last: 160 }]);
  });

  it("a number is never given twice even if the counter were wound back: the unique index refuses, nothing is written", () => {
    db.update(invoiceSequence).set({ last: 0 }).run();
    expect(() => durably(db, (tx) => issueInvoice(tx, seller, { id: "dup", userId: null, amountCents: 1, status: "paid", description: "x", createdAt: new Date() }))).toThrow(/UNIQUE/);
    expect(db.select().from(invoiceSequence).all()).toEqual([{ id: 1, last: 0 }]);
  });
});
