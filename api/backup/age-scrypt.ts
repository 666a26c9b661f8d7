/**
 * age's passphrase recipient and identity (the "scrypt" stanza of age-encryption.org/v1) on Node's
 * own scrypt, which runs on libuv's thread pool. The `age-encryption` package's built-in ones run a
 * pure-JavaScript scrypt on the calling thread: 2 to 5 s of a blocked event loop for each archive a
 * scheduled backup encrypts and verifies in the server (ADR 251). Same stanza, same work factor, so
 * files stay readable by the `age` command line tool and the other way round.
 */
import { createCipheriv, createDecipheriv, randomBytes, scrypt } from "node:crypto";
import { promisify } from "node:util";
import { Stanza, type Identity, type Recipient } from "age-encryption";

const LABEL = "age-encryption.org/v1/scrypt";
/** age's default work factor, 2^18; a file asking for more than 2^20 is refused, as age does. */
const LOG_N = 18;
const MAX_LOG_N = 20;
const NONCE = Buffer.alloc(12);
const TAG = 16;

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number; maxmem: number }) => Promise<Buffer>;

function wrapKey(passphrase: string, salt: Buffer, logN: number): Promise<Buffer> {
  const N = 2 ** logN;
  // scrypt needs 128·r·N bytes; Node refuses more than maxmem, 32 MiB by default.
  return scryptAsync(passphrase, Buffer.concat([Buffer.from(LABEL), salt]), 32, { N, r: 8, p: 1, maxmem: 128 * 8 * N + 1024 * 1024 });
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64").replace(/=+$/, "");

export class ScryptRecipient implements Recipient {
  /** `logN`: age's default unless a test asks for a faster one. */
  constructor(
    private readonly passphrase: string,
    private readonly logN = LOG_N,
  ) {}

  async wrapFileKey(fileKey: Uint8Array): Promise<Stanza[]> {
    const salt = randomBytes(16);
    const cipher = createCipheriv("chacha20-poly1305", await wrapKey(this.passphrase, salt, this.logN), NONCE, { authTagLength: TAG });
    const body = Buffer.concat([cipher.update(fileKey), cipher.final(), cipher.getAuthTag()]);
    return [new Stanza(["scrypt", base64(salt), String(this.logN)], body)];
  }
}

export class ScryptIdentity implements Identity {
  constructor(private readonly passphrase: string) {}

  async unwrapFileKey(stanzas: Stanza[]): Promise<Uint8Array | null> {
    for (const s of stanzas) {
      if (s.args[0] !== "scrypt") continue;
      // The checks of age's own identity: alone in the header, a 16-byte salt, a sane work factor.
      if (stanzas.length !== 1) throw new Error("scrypt recipient is not the only one in the header");
      const salt = Buffer.from(s.args[1] ?? "", "base64");
      if (s.args.length !== 3 || !/^[1-9][0-9]*$/.test(s.args[2]!) || salt.length !== 16 || s.body.length !== 32) throw new Error("invalid scrypt stanza");
      const logN = Number(s.args[2]);
      if (logN > MAX_LOG_N) throw new Error("scrypt work factor is too high");
      const decipher = createDecipheriv("chacha20-poly1305", await wrapKey(this.passphrase, salt, logN), NONCE, { authTagLength: TAG });
      decipher.setAuthTag(s.body.subarray(32 - TAG));
      try {
        return Buffer.concat([decipher.update(s.body.subarray(0, 32 - TAG)), decipher.final()]);
      } catch {
        return null;
      }
    }
    return null;
  }
}
