import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv, sellerNameRequired, TEST_MODE_SELLER_NAME } from "#api/env.server.ts";

describe("configuration", () => {
  it("runs on embedded defaults with nothing set", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(4321);
    expect(env.PUBLIC_ORIGIN).toBe("http://localhost:4321");
    expect(env.DATA_DIR).toBe(resolve("./data"));
    expect(env.PUBLISHED_DIR).toBe(resolve("./published"));
    expect(env.DATABASE_PATH).toBe(resolve("./data/plinth.db"));
    expect(env.OUTBOX_DIR).toBe(resolve("./data/outbox"));
    expect(env.SMTP_URL).toBeUndefined();
  });

  it("derives the public origin from PORT and drops a trailing slash from an explicit one", () => {
    expect(parseEnv({ PORT: "8080" }).PUBLIC_ORIGIN).toBe("http://localhost:8080");
    expect(parseEnv({ PUBLIC_ORIGIN: "https://plinth.example/" }).PUBLIC_ORIGIN).toBe("https://plinth.example");
  });

  it("refuses nonsense with a message naming the variable", () => {
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => parseEnv({ PORT: "70000" })).toThrow(/PORT/);
    expect(() => parseEnv({ PUBLIC_ORIGIN: "not a url" })).toThrow(/PUBLIC_ORIGIN/);
  });

  it("reads TRUST_PROXY as a number of proxies and refuses the old true", () => {
    expect(parseEnv({}).TRUST_PROXY).toBe(0);
    expect(parseEnv({ TRUST_PROXY: "false" }).TRUST_PROXY).toBe(0);
    expect(parseEnv({ TRUST_PROXY: "1" }).TRUST_PROXY).toBe(1);
    expect(parseEnv({ TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
    // "true" once meant the client-chosen leftmost X-Forwarded-For entry: the boot message says what to set.
    expect(() => parseEnv({ TRUST_PROXY: "true" })).toThrow(/TRUST_PROXY: now counts the reverse proxies in front of Plinth: set 1/);
    for (const v of ["yes", "-1", "1.5", " 1", "100", ""]) expect(() => parseEnv({ TRUST_PROXY: v })).toThrow(/TRUST_PROXY: must be the number of reverse proxies/);
  });

  it("reads the seller printed on invoices; with nothing set, test mode prints a stand-in name and no tax", () => {
    expect(parseEnv({}).SELLER).toEqual({ name: TEST_MODE_SELLER_NAME, address: [], taxId: null, taxRateBp: 0 });
    const env = parseEnv({
      SELLER_NAME: "  Plinth Ltd  ",
      SELLER_ADDRESS: "1 High Street\\nLondon  N1 1AA\nUnited Kingdom",
      SELLER_TAX_ID: "GB 123 4567 89",
      TAX_RATE_PERCENT: "20",
    });
    expect(env.SELLER).toEqual({ name: "Plinth Ltd", address: ["1 High Street", "London  N1 1AA", "United Kingdom"], taxId: "GB 123 4567 89", taxRateBp: 2000 });
    expect(parseEnv({ TAX_RATE_PERCENT: "8.25" }).SELLER.taxRateBp).toBe(825);
  });

  it("refuses each malformed seller value with a message naming the variable", () => {
    const refused = (source: Record<string, string>, message: RegExp) => expect(() => parseEnv(source)).toThrow(message);
    for (const v of ["", "   ", "A".repeat(121), "Evil\nCorp", "Nul\u0000Ltd", "Bidi\u202eLtd"]) refused({ SELLER_NAME: v }, /SELLER_NAME: must be the seller's legal name/);
    for (const v of ["", "x".repeat(301), "1\n2\n3\n4\n5\n6\n7", "Street\u0007"]) refused({ SELLER_ADDRESS: v }, /SELLER_ADDRESS: must be a postal address/);
    for (const v of ["", "X", "<script>", "GB:123", "A".repeat(41)]) refused({ SELLER_TAX_ID: v }, /SELLER_TAX_ID: must be a tax or VAT id/);
    for (const v of ["", "twenty", "-1", "100.5", "20%", "8,25", "1.234"]) refused({ TAX_RATE_PERCENT: v }, /TAX_RATE_PERCENT: must be a percentage from 0 to 100/);
    // Every bad value is reported at once, one line each.
    expect(() => parseEnv({ SELLER_NAME: "", TAX_RATE_PERCENT: "x" })).toThrow(/SELLER_NAME: .*\n.*TAX_RATE_PERCENT: /s);
  });

  it("the seller's name is required only with a real billing provider", () => {
    expect(sellerNameRequired("test")).toBe(false);
    expect(sellerNameRequired("stripe")).toBe(true);
  });

  describe("BILLING_PROVIDER=stripe", () => {
    const good = {
      BILLING_PROVIDER: "stripe",
      SELLER_NAME: "Plinth Ltd",
      STRIPE_SECRET_KEY: "sk_test_51AbCdEfGhIjKlMn",
      STRIPE_WEBHOOK_SECRET: "whsec_AbCdEfGhIjKlMnOp",
      STRIPE_PRICE_MONTHLY: "price_1MonthlyAbc",
      STRIPE_PRICE_YEARLY: "price_1YearlyAbc",
    };

    it("accepts secret, live and restricted keys with both prices", () => {
      expect(parseEnv(good).BILLING_PROVIDER).toBe("stripe");
      for (const key of ["sk_live_51AbCdEfGhIjKl", "rk_test_51AbCdEfGhIjKl", "rk_live_51AbCdEfGhIjKl"]) expect(parseEnv({ ...good, STRIPE_SECRET_KEY: key }).STRIPE_SECRET_KEY).toBe(key);
      expect(parseEnv({ ...good, STRIPE_API_BASE: "http://127.0.0.1:12111" }).STRIPE_API_BASE).toBe("http://127.0.0.1:12111");
    });

    it("names each missing value on its own line", () => {
      const message = (() => {
        try {
          parseEnv({ BILLING_PROVIDER: "stripe" });
        } catch (err) {
          return (err as Error).message;
        }
        return "";
      })();
      expect(message.split("\n").slice(1)).toEqual([
        expect.stringMatching(/^  SELLER_NAME: is required with a real billing provider/),
        expect.stringMatching(/^  STRIPE_SECRET_KEY: is required with BILLING_PROVIDER=stripe \(a secret key/),
        expect.stringMatching(/^  STRIPE_WEBHOOK_SECRET: is required with BILLING_PROVIDER=stripe \(the webhook endpoint's signing secret/),
        expect.stringMatching(/^  STRIPE_PRICE_MONTHLY: is required with BILLING_PROVIDER=stripe \(the id of Plinth Plus's monthly price/),
        expect.stringMatching(/^  STRIPE_PRICE_YEARLY: is required with BILLING_PROVIDER=stripe \(the id of Plinth Plus's yearly price/),
      ]);
    });

    it("refuses each malformed value with a message naming it", () => {
      const cases: [string, string][] = [
        ["STRIPE_SECRET_KEY", "pk_test_51AbCdEfGhIjKl"],
        ["STRIPE_SECRET_KEY", "sk_test_"],
        ["STRIPE_WEBHOOK_SECRET", "sk_test_51AbCdEfGhIjKl"],
        ["STRIPE_WEBHOOK_SECRET", "whsec_ab cd"],
        ["STRIPE_PRICE_MONTHLY", "prod_1AbcDef"],
        ["STRIPE_PRICE_YEARLY", "9.99"],
      ];
      for (const [name, value] of cases) expect(() => parseEnv({ ...good, [name]: value }), `${name}=${value}`).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}: must be `));
    });

    it("refuses an API base that is not a plain http(s) origin", () => {
      for (const base of ["ftp://127.0.0.1", "http://127.0.0.1:12111/v1", "not a url", "http://user:pw@127.0.0.1"]) {
        expect(() => parseEnv({ ...good, STRIPE_API_BASE: base }), base).toThrow(/STRIPE_API_BASE: must be an http\(s\) origin/);
      }
    });

    it("does not ask for Stripe values in test mode", () => {
      expect(parseEnv({}).BILLING_PROVIDER).toBe("test");
    });
  });
});

/** The lines naming each problem of a configuration, none when it is valid. */
const problems = (source: Record<string, string>) => {
  try {
    parseEnv(source);
  } catch (err) {
    return (err as Error).message.split("\n").slice(1);
  }
  return [];
};

describe("the publish target (ADR 129)", () => {
  const bucket = { PUBLISH_TARGET: "s3", S3_BUCKET: "plinth-pages", S3_REGION: "auto", PUBLIC_PAGES_ORIGIN: "https://pages.plinth.example/" };

  it("is the folder with nothing set, and a bucket with its values, the prefix and origin made regular", () => {
    expect(parseEnv({}).PUBLISH_TARGET).toBe("folder");
    const env = parseEnv({ ...bucket, S3_ENDPOINT: "https://account.r2.cloudflarestorage.com", S3_PREFIX: "/pages" });
    expect(env).toMatchObject({ PUBLISH_TARGET: "s3", S3_BUCKET: "plinth-pages", S3_REGION: "auto", S3_PREFIX: "pages/", PUBLIC_PAGES_ORIGIN: "https://pages.plinth.example" });
    expect(parseEnv(bucket).S3_PREFIX).toBe("");
    expect(parseEnv({ ...bucket, S3_PREFIX: "sites/main/" }).S3_PREFIX).toBe("sites/main/");
  });

  it("names every value a bucket needs that is missing", () => {
    expect(problems({ PUBLISH_TARGET: "s3" })).toEqual([
      "  S3_BUCKET: is required with PUBLISH_TARGET=s3: the name of the bucket pages are written to",
      "  S3_REGION: is required with PUBLISH_TARGET=s3: the bucket's region, e.g. us-east-1 (auto for Cloudflare R2)",
      "  PUBLIC_PAGES_ORIGIN: is required with PUBLISH_TARGET=s3: where visitors reach the pages, e.g. https://pages.example (the bucket's CDN)",
    ]);
  });

  it("refuses each malformed value with a message naming it", () => {
    const cases: [string, string, RegExp][] = [
      ["PUBLISH_TARGET", "bucket", /PUBLISH_TARGET: must be folder \(the default/],
      ["S3_BUCKET", "Pages", /S3_BUCKET: must be a bucket name/],
      ["S3_BUCKET", "pa", /S3_BUCKET: must be a bucket name/],
      ["S3_BUCKET", "pages..old", /S3_BUCKET: must be a bucket name/],
      ["S3_BUCKET", "pages/../x", /S3_BUCKET: must be a bucket name/],
      ["S3_REGION", "US East", /S3_REGION: must be a region name/],
      ["S3_ENDPOINT", "s3.example.com", /S3_ENDPOINT: must be the http\(s\) origin/],
      ["S3_ENDPOINT", "https://s3.example.com/bucket", /S3_ENDPOINT: must be the http\(s\) origin/],
      ["S3_ENDPOINT", "https://key:secret@s3.example.com", /S3_ENDPOINT: must be the http\(s\) origin/],
      ["S3_PREFIX", "../escape", /S3_PREFIX: must be a key prefix/],
      ["S3_PREFIX", "a//b", /S3_PREFIX: must be a key prefix/],
      ["S3_PREFIX", "pages\u0000", /S3_PREFIX: must be a key prefix/],
      ["S3_PREFIX", "p".repeat(201), /S3_PREFIX: must be a key prefix/],
      ["PUBLIC_PAGES_ORIGIN", "javascript:alert(1)", /PUBLIC_PAGES_ORIGIN: must be an http\(s\) origin/],
      ["PUBLIC_PAGES_ORIGIN", "https://pages.example/u", /PUBLIC_PAGES_ORIGIN: must be an http\(s\) origin/],
    ];
    for (const [name, value, message] of cases) expect(() => parseEnv({ ...bucket, [name]: value }), `${name}=${value}`).toThrow(message);
  });

  it("asks for both halves of an access key", () => {
    expect(problems({ ...bucket, AWS_ACCESS_KEY_ID: "AKIAEXAMPLE" })).toEqual(["  AWS_SECRET_ACCESS_KEY: is required when AWS_ACCESS_KEY_ID is set: the secret of the access key for the bucket"]);
    expect(problems({ ...bucket, AWS_SECRET_ACCESS_KEY: "secret" })).toEqual(["  AWS_ACCESS_KEY_ID: is required when AWS_SECRET_ACCESS_KEY is set: the id of the access key for the bucket"]);
    expect(problems({ ...bucket, AWS_ACCESS_KEY_ID: "AKIAEXAMPLE", AWS_SECRET_ACCESS_KEY: "secret" })).toEqual([]);
  });

  it("refuses a bucket value set while the target is the folder, which would otherwise be ignored", () => {
    expect(problems({ S3_BUCKET: "plinth-pages" })).toEqual([
      "  PUBLISH_TARGET: is folder (the default) but S3_BUCKET is set: set PUBLISH_TARGET=s3 to publish pages to a bucket, or unset S3_BUCKET",
    ]);
    expect(problems({ PUBLISH_TARGET: "folder", PUBLIC_PAGES_ORIGIN: "https://pages.example" })[0]).toMatch(/^  PUBLISH_TARGET: is folder \(the default\) but PUBLIC_PAGES_ORIGIN is set/);
  });
});

describe("the CDN purge hook (ADR 133)", () => {
  const cloudflare = "https://api.cloudflare.com/client/v4/zones/023e105f4ecef8ad9ca31a8372d0c353/purge_cache";

  it("is off with nothing set or empty values, and takes Cloudflare's, Fastly's and a webhook's URLs", () => {
    for (const source of [{}, { CDN_PURGE_URL: "", CDN_PURGE_HEADER: "" }]) {
      const env = parseEnv(source);
      expect([env.CDN_PURGE_URL, env.CDN_PURGE_HEADER]).toEqual([undefined, undefined]);
    }
    expect(parseEnv({ CDN_PURGE_URL: cloudflare, CDN_PURGE_HEADER: "Authorization: Bearer Ab-12_cd" })).toMatchObject({ CDN_PURGE_URL: cloudflare, CDN_PURGE_HEADER: "Authorization: Bearer Ab-12_cd" });
    expect(problems({ CDN_PURGE_URL: "https://api.fastly.com/purge/pages.example{path}", CDN_PURGE_HEADER: "Fastly-Key: abc123" })).toEqual([]);
    expect(problems({ CDN_PURGE_URL: "http://10.0.0.5:8080/hooks/purge?url={url}&path={path}" })).toEqual([]);
  });

  it("refuses a template it could not call, with a message naming the variable", () => {
    const cases: [string, RegExp][] = [
      ["api.cloudflare.com/purge", /CDN_PURGE_URL: must be an http\(s\) URL/],
      ["ftp://cdn.example/purge", /CDN_PURGE_URL: must be an http\(s\) URL/],
      ["https://cdn.example/purge?x={url}&y={username}", /CDN_PURGE_URL: names an unknown placeholder: only \{url\} .* \(found \{username\}\)/],
      ["https://cdn.example/purge/{path", /CDN_PURGE_URL: names an unknown placeholder.*\(found \{path\)/],
      ["https://cdn.example/purge /x", /CDN_PURGE_URL: must be an http\(s\) URL/],
      ["https://user:token@cdn.example/purge", /CDN_PURGE_URL: must not carry a user name or password: put the credential in CDN_PURGE_HEADER/],
    ];
    for (const [value, message] of cases) expect(() => parseEnv({ CDN_PURGE_URL: value }), value).toThrow(message);
  });

  it("refuses a header that is not one Name: value line, or one without a URL to send it to", () => {
    for (const value of ["Bearer abc", "Authorization:", "Author ization: x", "Authorization: a\r\nX-Evil: 1", "Authorization: a\u0000b", "Authorization: é"]) {
      expect(problems({ CDN_PURGE_URL: cloudflare, CDN_PURGE_HEADER: value }), JSON.stringify(value)).toEqual([
        "  CDN_PURGE_HEADER: must be one request header as Name: value, e.g. Authorization: Bearer TOKEN (Cloudflare) or Fastly-Key: TOKEN (Fastly)",
      ]);
    }
    expect(problems({ CDN_PURGE_HEADER: "Authorization: Bearer abc" })).toEqual(["  CDN_PURGE_HEADER: is set but CDN_PURGE_URL is not: set CDN_PURGE_URL too, or unset CDN_PURGE_HEADER"]);
  });
});

describe("scheduled backups (ADR 160)", () => {
  const RECIPIENT = "age1764v7c8565zjr30zgvvf6dh5kkpk5lfnhwd5ax03zv8xf6wz9u4qx375hj";
  const bucket = { S3_BUCKET: "plinth-pages", S3_REGION: "auto" };

  it("is off with nothing set, and reads the period, the count, the target and the encryption", () => {
    expect(parseEnv({}).BACKUP).toBeNull();
    expect(parseEnv({ BACKUP_EVERY: "6h", BACKUP_DIR: "/var/backups/plinth" }).BACKUP).toEqual({ everyMs: 6 * 3_600_000, keep: 14, target: { kind: "folder", dir: "/var/backups/plinth" }, encryption: null });
    expect(parseEnv({ BACKUP_EVERY: "30m", BACKUP_DIR: "/b", BACKUP_KEEP: "3", BACKUP_PASSPHRASE: "a long passphrase, 16+" }).BACKUP).toMatchObject({ everyMs: 1_800_000, keep: 3, encryption: { passphrase: "a long passphrase, 16+" } });
    expect(parseEnv({ BACKUP_EVERY: "1d", BACKUP_TARGET: "s3", ...bucket, BACKUP_AGE_RECIPIENT: RECIPIENT }).BACKUP).toEqual({
      everyMs: 86_400_000,
      keep: 14,
      target: { kind: "s3", bucket: "plinth-pages", prefix: "plinth-backups/" },
      encryption: { recipient: RECIPIENT },
    });
  });

  it("names each wrong value", () => {
    expect(problems({ BACKUP_EVERY: "6 hours", BACKUP_DIR: "/b" })).toEqual([expect.stringMatching(/^  BACKUP_EVERY: must be how often a backup is taken/)]);
    for (const every of ["10m", "31d", "0h", "6"]) expect(problems({ BACKUP_EVERY: every, BACKUP_DIR: "/b" }), every).toEqual([expect.stringMatching(/^  BACKUP_EVERY: /)]);
    expect(problems({ BACKUP_EVERY: "6h" })).toEqual([expect.stringMatching(/^  BACKUP_DIR: is required with BACKUP_EVERY/)]);
    expect(problems({ BACKUP_KEEP: "0" })).toEqual(["  BACKUP_KEEP: must be 1 or more"]);
    expect(problems({ BACKUP_PASSPHRASE: "short" })).toEqual([expect.stringMatching(/^  BACKUP_PASSPHRASE: must be at least 16 characters/)]);
    expect(problems({ BACKUP_AGE_RECIPIENT: "age1nope" })).toEqual([expect.stringMatching(/^  BACKUP_AGE_RECIPIENT: must be an age recipient/)]);
    expect(problems({ BACKUP_PASSPHRASE: "a long passphrase, 16+", BACKUP_AGE_RECIPIENT: RECIPIENT })).toEqual([expect.stringMatching(/^  BACKUP_PASSPHRASE: and BACKUP_AGE_RECIPIENT are both set/)]);
    expect(problems({ BACKUP_TARGET: "tape" })).toEqual([expect.stringMatching(/^  BACKUP_TARGET: must be folder .* or s3/)]);
  });

  it("refuses a backup folder the server serves", () => {
    expect(problems({ BACKUP_EVERY: "6h", PUBLISHED_DIR: "/srv/plinth/published", BACKUP_DIR: "/srv/plinth/published/backups" })).toEqual([expect.stringMatching(/^  BACKUP_DIR: is inside SITE_DIR or PUBLISHED_DIR/)]);
    expect(problems({ BACKUP_EVERY: "6h", SITE_DIR: "/srv/plinth/dist", BACKUP_DIR: "/srv/plinth/dist" })).toEqual([expect.stringMatching(/^  BACKUP_DIR: is inside SITE_DIR or PUBLISHED_DIR/)]);
    expect(problems({ BACKUP_EVERY: "6h", PUBLISHED_DIR: "/srv/plinth/published", BACKUP_DIR: "/srv/plinth/published-backups" })).toEqual([]);
  });

  it("takes the bucket's values for backups alone, and never puts backups among public pages", () => {
    expect(problems({ BACKUP_TARGET: "s3", ...bucket })).toEqual([]);
    expect(problems({ BACKUP_TARGET: "s3" })).toEqual([expect.stringMatching(/^  S3_BUCKET: is required with BACKUP_TARGET=s3/), expect.stringMatching(/^  S3_REGION: is required with BACKUP_TARGET=s3/)]);
    expect(problems({ BACKUP_TARGET: "s3", ...bucket, BACKUP_S3_PREFIX: "" })).toEqual([expect.stringMatching(/^  BACKUP_S3_PREFIX: must be a key prefix/)]);
    const pages = { PUBLISH_TARGET: "s3", ...bucket, PUBLIC_PAGES_ORIGIN: "https://pages.plinth.example" };
    // Pages at the bucket's root are public: backups in the same bucket would be too.
    expect(problems({ ...pages, BACKUP_TARGET: "s3" })).toEqual([expect.stringMatching(/^  BACKUP_S3_PREFIX: puts backups among the keys of the published pages/)]);
    expect(problems({ ...pages, S3_PREFIX: "pages/", BACKUP_TARGET: "s3", BACKUP_S3_PREFIX: "pages/backups" })).toEqual([expect.stringMatching(/^  BACKUP_S3_PREFIX: puts backups among/)]);
    expect(problems({ ...pages, S3_PREFIX: "pages/", BACKUP_TARGET: "s3" })).toEqual([]);
    expect(problems({ ...pages, BACKUP_TARGET: "s3", BACKUP_S3_BUCKET: "plinth-backups" })).toEqual([]);
  });
});
