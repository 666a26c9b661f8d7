/**
 * Encrypted backups (ADR 160): an archive is encrypted whole into the age format (age-encryption.org/v1)
 * with the `age-encryption` package, streamed in 64 KiB chunks, each authenticated. With a
 * passphrase it is age's scrypt recipient, on Node's scrypt (`age-scrypt.ts`, ADR 251); with an age
 * recipient (age1…), its X25519 or hybrid post-quantum recipient, and only the holder of the
 * identity can read it. Files written by the `age` command line tool read here, and the other way
 * round.
 */
import { closeSync, createReadStream, createWriteStream, openSync, readSync } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { Decrypter, Encrypter, generateHybridIdentity, generateX25519Identity, identityToRecipient } from "age-encryption";
import { ScryptIdentity, ScryptRecipient } from "./age-scrypt.ts";
import { OperatorError } from "./operator-error.ts";

/** How the archive is encrypted (env.server.ts's backupEncryption). */
export type BackupEncryption = { passphrase: string } | { recipient: string };

/** What decrypts an archive: passphrases and identities (AGE-SECRET-KEY-1…) to try. */
export interface BackupSecrets {
  passphrases?: string[];
  identities?: string[];
}

const AGE_MAGIC = "age-encryption.org/v1\n";

/** What an archive's first bytes say: a plain gzip archive, or age, and then how it is locked. */
export function archiveKind(path: string): "plain" | "passphrase" | "recipient" {
  const fd = openSync(path, "r");
  try {
    const head = Buffer.alloc(4096);
    const n = readSync(fd, head, 0, head.length, 0);
    const text = head.subarray(0, n).toString("latin1");
    if (!text.startsWith(AGE_MAGIC)) return "plain";
    // The stanzas follow the magic line: "-> scrypt …" is the passphrase's (and then the only one).
    return /^-> scrypt /m.test(text) ? "passphrase" : "recipient";
  } finally {
    closeSync(fd);
  }
}

/** A byte stream as the web stream age-encryption reads. */
const webStream = (path: string) => Readable.toWeb(createReadStream(path)) as unknown as ReadableStream<Uint8Array>;

/** Writes `from` encrypted to `to` (a new file, mode 0600); returns the ephemeral identity asked for, or null. */
export async function encryptFile(from: string, to: string, how: BackupEncryption, opts: { alsoEphemeral?: boolean } = {}): Promise<string | null> {
  const encrypter = new Encrypter();
  let ephemeral: string | null = null;
  if ("passphrase" in how) {
    encrypter.addRecipient(new ScryptRecipient(how.passphrase));
  } else {
    encrypter.addRecipient(how.recipient);
    if (opts.alsoEphemeral) {
      // One more recipient whose identity lives only in memory, so the writer can read back and
      // verify exactly the bytes it stores, then forget the key (ADR 160). Same kind as the
      // operator's: age does not mix post-quantum and classic recipients in one file.
      ephemeral = how.recipient.startsWith("age1pq1") ? await generateHybridIdentity() : await generateX25519Identity();
      encrypter.addRecipient(await identityToRecipient(ephemeral));
    }
  }
  const encrypted = await encrypter.encrypt(webStream(from));
  await pipeline(Readable.fromWeb(encrypted as unknown as WebReadableStream<Uint8Array>), createWriteStream(to, { flags: "wx", mode: 0o600, flush: true }));
  return ephemeral;
}

/**
 * Writes `from` decrypted to `to` (a new file, mode 0600). A wrong passphrase or identity is an
 * OperatorError saying so; a file altered or cut short fails its authentication as it is read.
 */
export async function decryptFile(from: string, to: string, secrets: BackupSecrets): Promise<void> {
  const decrypter = new Decrypter();
  for (const p of secrets.passphrases ?? []) decrypter.addIdentity(new ScryptIdentity(p));
  for (const id of secrets.identities ?? []) {
    try {
      decrypter.addIdentity(id);
    } catch {
      throw new OperatorError("The age identity given is not one (it starts AGE-SECRET-KEY-1…, as age-keygen writes it).");
    }
  }
  let plain: ReadableStream<Uint8Array>;
  try {
    plain = await decrypter.decrypt(webStream(from));
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    if (/no identity matched|incorrect passphrase|failed to decrypt|scrypt/i.test(reason)) {
      throw new OperatorError(`${from} cannot be decrypted with the ${archiveKind(from) === "passphrase" ? "passphrase" : "identity"} given (${reason}).`);
    }
    throw new OperatorError(`${from} is not a readable encrypted backup (${reason}).`);
  }
  try {
    await pipeline(Readable.fromWeb(plain as unknown as WebReadableStream<Uint8Array>), createWriteStream(to, { flags: "wx", mode: 0o600 }));
  } catch (err) {
    throw new OperatorError(`${from} is damaged or incomplete: its encrypted data does not authenticate (${err instanceof Error ? err.message : String(err)}).`);
  }
}
