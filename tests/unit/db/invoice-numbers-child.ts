/**
 * Child process of the invoice-number test: issues invoices in its own transactions against a shared
 * database file, every third one rolled back after its number was taken. Prints "done <issued>".
 * Arguments: dbPath tag count
 */
import { issueInvoice } from "#api/services/invoices.ts";
import { closeDatabase, durably, openDatabase } from "#db/client.ts";

const [dbPath, tag, count] = process.argv.slice(2) as [string, string, string];
const db = openDatabase({ path: dbPath, migrate: false });
const seller = { name: "Plinth Ltd", address: ["1 High Street"], taxId: "GB123456789", taxRateBp: 2000 };
let issued = 0;
for (let i = 0; i < Number(count); i++) {
  try {
    durably(db, (tx) => {
      issueInvoice(tx, seller, { id: `${tag}_${i}`, userId: null, amountCents: 899, status: "paid", description: "Plinth Plus (monthly)", createdAt: new Date() });
      if (i % 3 === 2) throw new Error("rolled back");
    });
    issued++;
  } catch (err) {
    if (!(err instanceof Error) || err.message !== "rolled back") throw err;
  }
}
closeDatabase(db);
process.stdout.write(`done ${issued}\n`);
