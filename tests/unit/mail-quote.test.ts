/** Someone else's words in a plain-text e-mail: one quoted block, nothing that could break or reorder it. */
import { describe, expect, it } from "vitest";
import { quoted } from "#api/mail/quote.ts";
import { payoutRejectedMail } from "#api/services/billing-mail.ts";
import { accountSuspendedMail, pageSuspendedMail } from "#api/services/admin-reports.ts";

describe("quoted", () => {
  it("puts every line behind \"> \", keeps blank lines as \">\", and drops control and direction characters", () => {
    expect(quoted("  Phishing links\r\n\r\nto a\u0007 fake \u202ebank  \n")).toBe("> Phishing links\n>\n> to a fake bank");
  });

  it("is how the payout-rejected and both suspension e-mails quote the admin's reason", () => {
    const reason = "Line one\r\nLine\u0000 two";
    const block = "The reason given:\n> Line one\n> Line two\n";
    expect(payoutRejectedMail("o@example.com", { requestedCents: 5000, reason, balanceCents: 5000 }).text).toContain(block);
    expect(pageSuspendedMail("o@example.com", "https://plinth.example", "owner", reason).text).toContain(block);
    expect(accountSuspendedMail("o@example.com", "https://plinth.example", reason).text).toContain(block);
  });
});
