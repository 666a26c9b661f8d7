/**
 * URLs an owner might type, paste or forge: ordinary ones, ones a browser would repair, and hostile
 * ones. The URL rule's tests (core, renderer, API) take every one of them through the editor's
 * schema, the API and the page, and check that the three agree.
 */
export const GOOD_URLS = [
  "https://example.com",
  "https://example.com/",
  "http://example.com",
  "HTTPS://EXAMPLE.COM/Path",
  "https://www.example.co.uk/a/b?c=1&d=2#e",
  "https://example.com/a?b=1&c=%272%27#d",
  "https://example.com:8443/x",
  "https://example.com:",
  "https://localhost",
  "http://127.0.0.1:4321/x",
  "https://[::1]/x",
  "https://münchen.de/straße",
  "https://xn--mnchen-3ya.de/",
  "https://XN--LS8H.example/",
  "https://ab--cd.example/",
  "https://a_b.example/",
  "https://9gag.com/",
  "https://example.com/@handle",
  "https://example.com/😀",
  "https://example.com/%E2%82%AC",
  `https://example.com/${"x".repeat(2000)}`,
];

/**
 * Refused by the web URL rule as written: each would be dropped by the page, repaired by a browser, or
 * is hostile. A few are completed into a web URL first in a URL field (COMPLETED_URLS), or are an
 * e-mail or phone link a button accepts (ADR 144, 145).
 */
export const BAD_URLS = [
  "https:example.com",
  "https:/example.com",
  "https:///example.com",
  "http:\\\\example.com",
  "https:\\\\evil.example",
  "https://\\evil.example",
  "/\\evil.example",
  "//evil.example/x",
  "example.com",
  "www.example.com",
  "shop.example.com/sale",
  "https://",
  "https://:443/",
  "https://@example.com",
  "https://user@example.com",
  "https://user:pass@evil.example",
  "https://example.com@evil.example",
  "https://example.com:99999/",
  "https://1.2.3.999/",
  "https://a.0x1f/",
  "https://xn--zz/",
  "https://xn--zz.example/",
  "https://shop.xn--ab-.example/",
  "https://xn--.example/",
  "https://[::1/",
  "https://ex%ample.com/",
  "https://exa mple.com",
  "https://example.com/a b",
  "https://example.com/\tx",
  "https://example.com/a\u00a0b",
  "https://exa\u200bmple.com",
  "https://exa\u202emple.com",
  "https://example.com/\u2028x",
  "https://example.com/\u0000",
  "https://example.com/\u0085",
  "https://example.com/\"><script>alert(1)</script>",
  "https://example.com/'onmouseover='alert(1)",
  "https://example.com/<b>",
  "https://example.com/`x`",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "java\tscript:alert(1)",
  "java\nscript:alert(1)",
  "\u0000javascript:alert(1)",
  "&#106;avascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "file:///etc/passwd",
  "ftp://example.com/file",
  "mailto:a@example.com",
  "tel:+15550100",
  "sms:+15550100",
  "#",
  "/media/ab/c.webp",
  `https://example.com/${"x".repeat(2100)}`,
];

/** URLs that are surrounded by whitespace: trimmed, then judged. */
export const PADDED_URLS = ["  https://example.com/padded  ", "\thttps://example.com/tab\n", " https:example.com "];

/**
 * What an owner types without a scheme, or with a phone number's spaces or a subject's spaces, and
 * what every URL field saves instead, visibly (ADR 145). The rule itself refuses the typed form.
 */
export const COMPLETED_URLS: [typed: string, saved: string][] = [
  ["example.com", "https://example.com"],
  ["www.example.com", "https://www.example.com"],
  ["shop.example.com/sale", "https://shop.example.com/sale"],
  ["  Shop.Example.com/a?b=1#c ", "https://Shop.Example.com/a?b=1#c"],
  ["localhost:4321/x", "https://localhost:4321/x"],
];
/** Completed in a button's or text link's address only (ADR 144, 145). */
export const COMPLETED_CONTACT_URLS: [typed: string, saved: string][] = [
  ["hello@example.com", "mailto:hello@example.com"],
  ["+1 (415) 555-0123", "tel:+14155550123"],
  ["tel:+44 20 7946 0958", "tel:+442079460958"],
  ["SMS:+33.6.12.34.56.78", "sms:+33612345678"],
  ["mailto:hello@example.com?subject=Hello there", "mailto:hello@example.com?subject=Hello%20there"],
];

/** E-mail, phone and text-message links a button or a text link accepts as written (ADR 144). */
export const CONTACT_URLS = [
  "mailto:a@example.com",
  "mailto:first.last+tag@mail.example.co.uk",
  "mailto:hello@example.com?subject=Hello%20there",
  "mailto:hello@example.com?subject=Caf%C3%A9%20(order%20%2342)",
  "MAILTO:Hello@Example.COM",
  "tel:+15550100",
  "tel:+14155550123",
  "sms:+15550100",
  "sms:+447911123456",
  "Tel:+861380013800",
];

/** Refused, each with the message of its kind: several recipients, other headers, line breaks, scripts, numbers not in E.164. */
export const BAD_CONTACT_URLS: [url: string, kind: "mailto" | "tel" | "sms"][] = [
  ["mailto:", "mailto"],
  ["mailto:a@example.com,b@example.com", "mailto"],
  ["mailto:a@example.com;b@example.com", "mailto"],
  ["mailto:a@example.com%2Cb@example.com", "mailto"],
  ["mailto:?to=a@example.com", "mailto"],
  ["mailto:a@example.com?to=b@example.com", "mailto"],
  ["mailto:a@example.com?cc=b@example.com", "mailto"],
  ["mailto:a@example.com?bcc=b@example.com", "mailto"],
  ["mailto:a@example.com?body=Click%20https://evil.example", "mailto"],
  ["mailto:a@example.com?subject=Hi&body=x", "mailto"],
  ["mailto:a@example.com?subject=Hi&bcc=b@example.com", "mailto"],
  ["mailto:a@example.com?subject=Hi%0D%0ABcc:%20b@example.com", "mailto"],
  ["mailto:a@example.com?subject=Hi%0ABcc:b@example.com", "mailto"],
  ["mailto:a@example.com?subject=%E2%80%AEevil", "mailto"],
  ["mailto:a@example.com?subject=%ZZ", "mailto"],
  ["mailto:a@example.com?subject=", "mailto"],
  ["mailto:a@example.com?subject=%20", "mailto"],
  ["mailto:a@example.com\r\nBcc: b@example.com", "mailto"],
  ["mailto:a@example.com%0ABcc:b@example.com", "mailto"],
  ["mailto:a b@example.com", "mailto"],
  ["mailto:<a@example.com>", "mailto"],
  ["mailto:\"a\"@example.com", "mailto"],
  ["mailto:a@example", "mailto"],
  ["mailto:a..b@example.com", "mailto"],
  ["mailto:.a@example.com", "mailto"],
  ["mailto:a@-example.com", "mailto"],
  ["mailto:a@[127.0.0.1]", "mailto"],
  ["mailto:javascript:alert(1)//@example.com", "mailto"],
  [`mailto:${"a".repeat(65)}@example.com`, "mailto"],
  ["tel:", "tel"],
  ["tel:4155550123", "tel"],
  ["tel:+0123456789", "tel"],
  ["tel:+12345", "tel"],
  ["tel:+1234567890123456", "tel"],
  ["tel:+14155550123;ext=5", "tel"],
  ["tel:+14155550123?body=x", "tel"],
  ["tel:+1415\n5550123", "tel"],
  ["tel:javascript:alert(1)", "tel"],
  ["tel:+%31415555012", "tel"],
  ["sms:+14155550123?body=Hello", "sms"],
  ["sms:+14155550123,+14155550124", "sms"],
  ["sms:+1415555abcd", "sms"],
  ["sms:14155550123", "sms"],
];

export const ODD_URLS = [...GOOD_URLS, ...BAD_URLS, ...PADDED_URLS];
