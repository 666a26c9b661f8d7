/**
 * Long-form text as Markdown (ADR 126): the subset the page draws (headings, emphasis, lists,
 * links), links through the links' URL rule, and no markup ever from what the owner typed. Pages
 * are parsed as a browser parses them, so an injected element or attribute would show up.
 */
import { describe, expect, it } from "vitest";
import { LONG_FORM_LIST_ITEMS_MAX, LONG_FORM_NESTING_MAX, longFormListItems } from "#core/profile.ts";
import { longFormBlocks, longFormProblem } from "#renderer/markdown.ts";
import { all, byClass, byTag, normText, parseHtml, type El } from "./html.ts";
import { LITE, PLUS, render, snapshot } from "./fixtures.ts";

/** The page's long-form section for `text`, as a browser would read it. */
function about(text: string): El {
  const section = byClass(parseHtml(render(snapshot({ longFormText: text }), PLUS).html), "lf")[0];
  expect(section, text).toBeDefined();
  return section!;
}
/** The element tree of the section as tag names, e.g. "h2(Hello) p(a em(b))". */
function shape(e: El): string {
  return e.children
    .map((c) => (c.isText ? JSON.stringify(c.text) : `${c.tag}${c.attrs.href ? `[${c.attrs.href}]` : ""}(${shape(c)})`))
    .join(" ");
}

const ALLOWED = new Set(["section", "h2", "h3", "h4", "p", "em", "strong", "ul", "ol", "li", "a", "br"]);

function assertInert(section: El, where: string) {
  for (const e of all(section)) {
    expect(ALLOWED.has(e.tag), `${where}: <${e.tag}>`).toBe(true);
    for (const [name, value] of Object.entries(e.attrs)) {
      expect(["class", "aria-label", "href", "rel", "start"].includes(name), `${where}: attribute ${name}`).toBe(true);
      if (name === "href") expect(value, where).toMatch(/^(https?:\/\/[^/\\\s]|mailto:[^/\\\s])/i);
    }
  }
}

describe("long-form Markdown", () => {
  it("draws headings, emphasis, strong, lists and links", () => {
    expect(shape(about("## Hello"))).toBe('h2("Hello")');
    expect(shape(about("# Top\n\n### Third\n\n#### Fourth\n\n###### Sixth"))).toBe('h2("Top") h3("Third") h4("Fourth") h4("Sixth")');
    expect(shape(about("Some *em*, _also_ and **strong** [a link](https://example.com/x)"))).toBe(
      'p("Some " em("em") ", " em("also") " and " strong("strong") " " a[https://example.com/x]("a link"))',
    );
    expect(shape(about("- one\n- two\n  1. nested"))).toBe('ul(li("one") li("two" ol(li("nested"))))');
    expect(shape(about("3. three\n4. four"))).toBe('ol(li("three") li("four"))');
    expect(about("3. three").children[0]!.attrs.start).toBe("3");
    // A loose list keeps its paragraphs.
    expect(shape(about("- one\n\n- two"))).toBe('ul(li(p("one")) li(p("two")))');
    const a = byTag(about("[me](https://example.com/)"), "a")[0]!;
    expect(a.attrs.rel).toBe("noopener");
    expect(shape(about("<https://auto.example/>"))).toBe('p(a[https://auto.example/]("https://auto.example/"))');
  });

  it("keeps a line break the owner typed, and two spaces or a backslash make a hard one", () => {
    expect(shape(about("About me\nsecond line"))).toBe('p("About me\\nsecond line")');
    expect(shape(about("one  \ntwo"))).toBe('p("one" br() "two")');
  });

  it("never turns HTML into markup: tags, comments and entities stay text", () => {
    const hostile = [
      "<script>alert(1)</script>",
      '<img src=x onerror="alert(1)">',
      "<b>bold</b> and <a href='javascript:alert(1)'>x</a>",
      "<!-- comment --><style>body{display:none}</style>",
      "<div>\n\n**inside**\n\n</div>",
      "</section><script>alert(1)</script>",
      "<iframe src=//evil.example></iframe>",
    ];
    for (const t of hostile) {
      const s = about(t);
      assertInert(s, t);
      expect(byTag(s, "script").length + byTag(s, "img").length + byTag(s, "style").length + byTag(s, "iframe").length, t).toBe(0);
    }
    expect(normText(about("<script>alert(1)</script>"))).toBe("<script>alert(1)</script>");
    // HTML is not a construct at all: a tag is text beside the Markdown around it, not a raw block.
    expect(shape(about("<div>\n*x*\n</div>"))).toBe('p("<div>\\n" em("x") "\\n</div>")');
    // Entities decode to the characters they name, and those are text, not markup.
    expect(normText(about("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &copy;"))).toBe("<script>alert(1)</script> & ©");
    expect(byTag(about("&lt;b&gt;x&lt;/b&gt;"), "b")).toHaveLength(0);
  });

  it("drops a link's address unless the links' URL rule accepts it, keeping its text", () => {
    const refused = [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "&#106;avascript:alert(1)",
      "java%0ascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox(1)",
      "file:///etc/passwd",
      "//evil.example/x",
      "/relative",
      "#top",
      "https:\\\\evil.example",
      "<javascript:alert(1)>",
      "https://evil.example/%00x\u0001",
    ];
    for (const u of refused) {
      for (const text of [`[click](${u})`, `[click](<${u}>)`, `<${u}>`, `[click][r]\n\n[r]: ${u}`]) {
        const s = about(text);
        assertInert(s, text);
        expect(byTag(s, "a"), text).toHaveLength(0);
      }
    }
    // Reference links show as their text even when their address is fine: one path for addresses.
    expect(byTag(about("[ok][r]\n\n[r]: https://example.com/"), "a")).toHaveLength(0);
    // Images are not drawn: their alt text is.
    expect(shape(about("![a cat](https://example.com/cat.png)"))).toBe('p("a cat")');
    // A quote in the title attribute cannot get out of it.
    const titled = about('[x](https://example.com/ "a\\" onmouseover=alert(1) x")');
    assertInert(titled, "title");
  });

  it("survives odd and deep nesting without throwing, drawing what is too deep as text", () => {
    const odd = [
      "> ".repeat(500) + "deep quote",
      "- ".repeat(200) + "deep list",
      "*".repeat(300) + "x" + "*".repeat(300),
      "[".repeat(500) + "x" + "](https://a.example/)".repeat(500),
      "**bold *both** em*",
      "[a [b](https://b.example/)](https://a.example/)",
      "```\n<script>alert(1)</script>\n```",
      "    indented <b>code</b>",
      "\\<script\\>",
      "\u202ex",
    ];
    for (const t of odd) assertInert(about(t), t.slice(0, 30));
    // Deeper than the page draws, within what the API accepts: drawn as text.
    expect(normText(about("> ".repeat(25) + "deep quote"))).toBe("deep quote");
    expect(normText(about("- ".repeat(25) + "deep list"))).toBe("deep list");
    expect(byTag(about("- ".repeat(25) + "deep list"), "ul").length).toBeLessThanOrEqual(8);
    // Deeper than the parser reads (the API refuses it, ADR 148): what was saved before is drawn up to there, nothing throws.
    expect(longFormProblem("> ".repeat(500) + "deep quote")).toBe("too_deep");
    expect(longFormProblem("- ".repeat(200) + "deep list")).toBe("too_deep");
    expect(longFormProblem("- ".repeat(LONG_FORM_NESTING_MAX) + "deep list")).toBeNull();
    expect(longFormProblem("> ".repeat(LONG_FORM_NESTING_MAX) + "deep quote")).toBeNull();
    expect(normText(about("```\n<script>alert(1)</script>\n```"))).toBe("<script>alert(1)</script>");
  });

  it("draws nothing for blank text, a rule or an empty heading, and nothing at all on Lite", () => {
    expect(longFormBlocks("  \n\n ")).toEqual([]);
    expect(longFormBlocks("***\n\n#\n\n## ")).toEqual([]);
    expect(byClass(parseHtml(render(snapshot({ longFormText: "---" }), PLUS).html), "lf")).toHaveLength(0);
    const lite = parseHtml(render(snapshot({ longFormText: "## Hello" }), LITE).html);
    expect(byClass(lite, "lf")).toHaveLength(0);
  });
});

describe("character references and the text rule (issue 35)", () => {
  it("finds an invisible character a reference names, and the page never draws one", () => {
    for (const text of ["[&#x202E;moc.elgoog](https://evil.example/)", "&#8238;x", "a&#x200B;&#x2066;b", "*&#x202a;*", "# &#x2069;Title", "- &#X202D;item"]) {
      expect(longFormProblem(text), text).toBe("invisible");
      const section = about(text);
      expect(normText(section), text).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    }
    expect(normText(about("[&#x202E;moc.elgoog](https://evil.example/)"))).toBe("moc.elgoog");
    // What the rule allows is drawn as the owner wrote it.
    for (const text of ["&amp; &copy; &#x41;", "Caf&eacute;", "[a](https://example.com/?q=1&amp;r=2)", "&#x200B; is a zero-width space"]) expect(longFormProblem(text), text).toBeNull();
    expect(normText(about("Caf&eacute; &#x41;"))).toBe("Café A");
    // References to control characters decode to the replacement character, never to the control.
    expect(normText(about("a&#x7F;b&#x1b;c&#0;d"))).toBe("a\ufffdb\ufffdc\ufffdd");
  });
});

describe("bounded parsing (issue 35, ADR 148)", () => {
  it("counts list items without parsing, and refuses more than the limit", () => {
    expect(longFormListItems("- a\n- b\n  * c\n> 1. d\n2) e\n- - f\nnot - a list\n-not\n")).toBe(7);
    expect(longFormProblem("- a\n".repeat(LONG_FORM_LIST_ITEMS_MAX))).toBeNull();
    expect(longFormProblem("- a\n".repeat(LONG_FORM_LIST_ITEMS_MAX + 1))).toBe("too_many_items");
    expect(longFormProblem("- a\n".repeat(1250))).toBe("too_many_items");
  });

  it("parses a text once and keeps its tree for every render after", () => {
    const text = `Kept ${Math.random()}\n\n- one\n- two`;
    const first = longFormBlocks(text);
    expect(longFormBlocks(text)).toBe(first);
    expect(longFormProblem(text)).toBeNull();
    expect(longFormBlocks(text)).toBe(first);
  });

  it("a save's check takes no more than a small multiple of the time of plain text of the same length, whatever the Markdown", () => {
    const N = 5000;
    const fill = (unit: string) => unit.repeat(Math.ceil(N / unit.length)).slice(0, N);
    const plain = fill("Thanks for stopping by\nI make things and write about them\n\nSay hello any time\n");
    const adversarial: Record<string, string> = {
      "deep lists": fill("- "),
      "deep ordered lists": fill("1. "),
      "deep indented lists": Array.from({ length: 60 }, (_, i) => `${"  ".repeat(i % 30)}- item\n`).join("").padEnd(N, "x"),
      "lists of quotes": fill("- > "),
      "a long list": "- a\n".repeat(LONG_FORM_LIST_ITEMS_MAX).padEnd(N, "x"),
      "a list longer than allowed": fill("- a\n"),
      "runs of emphasis markers": fill("*a"),
      "underscores": fill("_a "),
      "emphasis around emphasis": `${"*".repeat(N / 2 - 1)}a${"*".repeat(N / 2)}`,
      "mixed markers and brackets": fill("**_[a"),
      "nested brackets": `${"[".repeat(N / 2)}${"]".repeat(N / 2)}`,
      "open brackets": fill("[a"),
      "open links": fill("[a]("),
      "nested quotes": fill("> "),
      "quoted lines": fill(">a\n"),
      "quotes and brackets": fill("> [a\n"),
      "headings": fill("a\n=\n"),
      "backticks": fill("`a``"),
      "angle brackets": fill("<a"),
      "references": fill("&#x41;"),
    };
    // Linear parsing keeps every input here within about 25 times plain text (many small elements
    // cost more than one long paragraph); the parser before grew faster than its input and took 35
    // to 125 times on several of them.
    // What a save does (count the list items, parse, check), on a text it has not seen (the last
    // character varies, so nothing kept is reused). Each input is checked in turn with plain text,
    // many times, and the fastest runs are compared: the machine's other work slows both alike, and
    // a ratio does not depend on the machine's speed.
    let n = 0;
    const timed = (text: string, runs: number[]) => {
      const fresh = text.slice(0, N - 1) + String.fromCharCode(0x4e00 + (n++ % 20_000));
      const start = performance.now();
      longFormProblem(fresh);
      runs.push(performance.now() - start);
    };
    for (const [name, text] of Object.entries(adversarial)) {
      expect(text.length, name).toBeGreaterThanOrEqual(N);
      const plainRuns: number[] = [];
      const runs: number[] = [];
      for (let i = 0; i < 20; i++) {
        timed(plain, plainRuns);
        timed(text, runs);
      }
      const ratio = Math.min(...runs) / Math.min(...plainRuns);
      expect(ratio, `${name}: ${ratio.toFixed(1)} times plain text`).toBeLessThan(40);
    }
  });
});
