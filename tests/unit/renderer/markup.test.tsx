/**
 * renderMarkup against react-dom/server itself: the same bytes for every kind of prop a template
 * component takes, React's own special cases included, and a template that would break the rules is
 * refused when it is first compiled.
 */
import { Component, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { template } from "#renderer/components/template.ts";
import { escapeHtml, markupStats, renderMarkup } from "#renderer/markup.ts";

const same = (node: ReactNode) => expect(renderMarkup(node)).toBe(renderToStaticMarkup(node as never));

const NASTY = [`"'&<>`, "<script>alert(1)</script>", "&amp; already", "a\u0000b\u001fc", "é ü 漢字 🙂", "\u2028\u2029", "x".repeat(3000), " spaced ", "0", "true"];

const Card = template(function Card(p: { title: string; href: string; note: string | null; count: number; open: boolean; children?: ReactNode }) {
  return (
    <section className={`card ${p.open ? "open" : "shut"}`} data-count={p.count} title={p.title}>
      <h2>{p.title}</h2>
      <a href={p.href} data-x={`${p.href}#top`}>
        {p.title} / {p.title}
      </a>
      {p.note ? <p>{p.note}</p> : <p>none</p>}
      <div>{p.children}</div>
    </section>
  );
});

const Icon = template(function Icon({ kind }: { kind: "a" | "b" }) {
  return <i className={kind === "a" ? "first" : "second"} />;
}, ["kind"]);

function Plain({ label }: { label: string }) {
  return (
    <span>
      <Icon kind="b" />
      {label}
    </span>
  );
}

describe("renderMarkup", () => {
  it("escapes every hole exactly as React escapes text and attributes", () => {
    for (const s of NASTY) same(<Card title={s} href={`https://example.com/${s}`} note={s} count={2} open={true} />);
    expect(escapeHtml(`"'&<>`)).toBe("&quot;&#x27;&amp;&lt;&gt;");
  });

  it("follows React where the value changes the markup: empty strings, null, booleans, numbers", () => {
    same(<Card title="" href="" note="" count={0} open={false} />);
    same(<Card title="t" href="https://example.com" note={null} count={-1.5} open={false} />);
    same(<Card title="t" href="https://example.com" note="n" count={1e21} open={true} />);
  });

  it("hands a URL that React would block to React", () => {
    for (const href of ["javascript:alert(1)", " JaVaScRiPt:alert(1)", "\u0001javascript:x", "jav\tascript:alert(1)"]) {
      const before = markupStats.fallbacks;
      same(<Card title="t" href={href} note={null} count={1} open />);
      expect(markupStats.fallbacks).toBe(before + 1);
    }
    // Not at the start of the attribute: React leaves it alone, and so do we.
    same(<Card title="javascript:alert(1)" href="https://example.com/javascript:x" note="javascript:y" count={1} open />);
  });

  it("checks a URL's start across every prop and fixed text that make it", () => {
    const Joined = template(function Joined(p: { a: string; b: string }) {
      return <a href={`${p.a}${p.b}`}>x</a>;
    });
    const AfterFixed = template(function AfterFixed(p: { a: string; b: string }) {
      return <a href={`\u0001${p.a}`} title={p.b}>x</a>;
    });
    const Tel = template(function Tel(p: { tel: string }) {
      return <a href={`tel:${p.tel}`}>{p.tel}</a>;
    });
    // A first value of spaces or control characters leaves the scheme to the next: React decides.
    for (const [a, b] of [[" ", "javascript:alert(1)"], ["\u0001", "javascript:alert(1)"], ["\t", "JAVASCRIPT:x"], ["https://ok/", "javascript:x"]]) {
      same(<Joined a={a!} b={b!} />);
    }
    expect(renderMarkup(<Joined a=" " b="javascript:alert(1)" />)).not.toContain("alert(1)");
    for (const tel of ["javascript:alert(1)", "+1 555", `"><script>`]) same(<Tel tel={tel} />);
    expect(() => renderMarkup(<AfterFixed a="avascript:alert(1)" b="t" />)).toThrow(/AfterFixed\d* places a prop in href after text that could begin a javascript: URL/);
    const AfterJ = template(function AfterJ(p: { a: string }) {
      return <img src={`j${p.a}`} alt="" loading="lazy" />;
    });
    expect(() => renderMarkup(<AfterJ a="avascript:x" />)).toThrow(/AfterJ\d* places a prop in src after text/);
  });

  it("refuses a template that places an element or array inside an attribute", () => {
    const InAttribute = template(function InAttribute(p: { u: ReactNode }) {
      return <a href={p.u as string}>x</a>;
    });
    expect(() => renderMarkup(<InAttribute u={["javascript:alert(1)"]} />)).toThrow(/InAttribute\d* places an element or array inside an attribute/);
    expect(() => renderMarkup(<InAttribute u={["https://a", "b"]} />)).toThrow(/inside an attribute/);
  });

  it("refuses a template that places a prop where React does not escape it", () => {
    const Inner = template(function Inner(p: { html: string }) {
      return <div dangerouslySetInnerHTML={{ __html: p.html }} />;
    });
    expect(() => renderMarkup(<Inner html="<b>x</b>" />)).toThrow(/Inner\d* places a prop where React does not escape it/);
    const Script = template(function Script(p: { code: string }) {
      return <script>{p.code}</script>;
    });
    expect(() => renderMarkup(<Script code="alert(1)" />)).toThrow(/Script\d* places a prop where React does not escape it/);
    const Style = template(function Style(p: { css: string }) {
      return <style>{p.css}</style>;
    });
    expect(() => renderMarkup(<Style css="a{color:red}" />)).toThrow(/Style\d* places a prop where React does not escape it/);
  });

  it("fills slots with elements, arrays, strings and nested templates", () => {
    same(
      <Card title="outer" href="/o" note={null} count={1} open>
        {["a<", <Icon key="1" kind="a" />, [<Plain key="2" label="in & out" />, 3, null, false, "z"]]}
        <Card title="inner" href="/i" note="n" count={2} open={false}>
          <Icon kind="b" />
        </Card>
      </Card>,
    );
    same(
      <>
        <Plain label={`"x"`} />
        text &amp;
        <Icon kind="a" />
      </>,
    );
  });

  it("compiles a variant once and reuses it", () => {
    renderMarkup(<Card title="warm" href="/w" note="n" count={7} open />);
    const compiled = markupStats.compiled;
    for (const s of NASTY) renderMarkup(<Card title={s} href={`/${s}`} note={s} count={7} open />);
    expect(markupStats.compiled).toBe(compiled);
    renderMarkup(<Card title="warm" href="/w" note="n" count={8} open />);
    expect(markupStats.compiled).toBe(compiled + 1);
  });

  it("leaves host elements and class components outside templates to React", () => {
    class Old extends Component<{ v: string }> {
      override render() {
        return <b>{this.props.v}</b>;
      }
    }
    const before = markupStats.fallbacks;
    same(
      <div id="host">
        <Old v="<x>" />
      </div>,
    );
    same(<Old v="&" />);
    expect(markupStats.fallbacks).toBe(before + 2);
  });

  it("refuses a template that rewrites a string prop instead of placing it", () => {
    const Trims = template(function Trims({ name }: { name: string }) {
      return <p>{name.trim()}</p>;
    });
    expect(() => renderMarkup(<Trims name="Ada" />)).toThrow(/Trims\d* rewrote one of its string props/);
    const Encodes = template(function Encodes({ name }: { name: string }) {
      return <a href={`/u/${encodeURIComponent(name)}`}>x</a>;
    });
    expect(() => renderMarkup(<Encodes name="Ada" />)).toThrow(/Encodes\d* rewrote one of its string props/);
    const Branches = template(function Branches({ name }: { name: string }) {
      return <p className={name.length > 12 ? "long" : "short"}>{name}</p>;
    });
    expect(() => renderMarkup(<Branches name="Ada" />)).toThrow(/Branches\d* rewrote one of its string props, or branched on one/);
  });

  it("refuses a template whose markup React would move elsewhere", () => {
    const Eager = template(function Eager({ src }: { src: string }) {
      return <img src={src} alt="" />;
    });
    expect(() => renderMarkup(<Eager src="/media/a.webp" />)).toThrow(/Eager\d* renders something React moves out of place/);
    const Lazy = template(function Lazy({ src }: { src: string }) {
      return <img src={src} alt="" loading="lazy" />;
    });
    same(<Lazy src="/media/a.webp" />);
  });
});
