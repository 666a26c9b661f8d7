/**
 * The passphrase stanza on Node's scrypt (api/backup/age-scrypt.ts, ADR 251): files it writes read
 * with age-encryption's own passphrase code and the other way round, a wrong passphrase matches
 * nothing, a header age refuses is refused, and the event loop keeps running while it derives.
 */
import { Decrypter, Encrypter, Stanza } from "age-encryption";
import { describe, expect, it } from "vitest";
import { ScryptIdentity, ScryptRecipient } from "#api/backup/age-scrypt.ts";

const PASSPHRASE = "correct horse battery staple, twice over";

describe("age's scrypt stanza on Node's scrypt", () => {
  it("writes what age-encryption's own passphrase code reads, and reads what it writes", async () => {
    const ours = new Encrypter();
    // A low work factor keeps the test fast; the default (2^18) is the same code with a larger N.
    ours.addRecipient(new ScryptRecipient(PASSPHRASE, 10));
    const theirsReads = new Decrypter();
    theirsReads.addPassphrase(PASSPHRASE);
    expect(await theirsReads.decrypt(await ours.encrypt("written here"), "text")).toBe("written here");

    const theirs = new Encrypter();
    theirs.setPassphrase(PASSPHRASE);
    theirs.setScryptWorkFactor(10);
    const oursReads = new Decrypter();
    oursReads.addIdentity(new ScryptIdentity(PASSPHRASE));
    expect(await oursReads.decrypt(await theirs.encrypt("written by age"), "text")).toBe("written by age");
  });

  it("keeps the event loop running while it derives the key, and a wrong passphrase matches nothing", async () => {
    const stanza = new Stanza(["scrypt", "c2FsdHNhbHRzYWx0c2FsdA", "18"], new Uint8Array(32));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      expect(await new ScryptIdentity("not the passphrase").unwrapFileKey([stanza])).toBeNull();
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0);
  }, 60_000);

  it("refuses a header age refuses: another stanza beside it, a bad salt, too high a work factor", async () => {
    const id = new ScryptIdentity(PASSPHRASE);
    const salt = "c2FsdHNhbHRzYWx0c2FsdA";
    const body = new Uint8Array(32);
    await expect(id.unwrapFileKey([new Stanza(["scrypt", salt, "18"], body), new Stanza(["X25519", "x"], body)])).rejects.toThrow("scrypt recipient is not the only one in the header");
    await expect(id.unwrapFileKey([new Stanza(["scrypt", "c2hvcnQ", "18"], body)])).rejects.toThrow("invalid scrypt stanza");
    await expect(id.unwrapFileKey([new Stanza(["scrypt", salt, "018"], body)])).rejects.toThrow("invalid scrypt stanza");
    await expect(id.unwrapFileKey([new Stanza(["scrypt", salt, "21"], body)])).rejects.toThrow("scrypt work factor is too high");
    expect(await id.unwrapFileKey([new Stanza(["X25519", "x"], body)])).toBeNull();
  });
});
