/**
 * Long-form text on the page: the tree renderer/markdown.ts made, drawn as elements. Text is only
 * ever a React text node, and every address has passed safe-href already.
 */
import { Fragment, type ReactNode } from "react";
import type { LongFormBlock, LongFormInline } from "../markdown.ts";

function inline(items: LongFormInline[]): ReactNode[] {
  const out: ReactNode[] = [];
  for (let i = 0; i < items.length; i++) {
    const n = items[i]!;
    if (typeof n === "string") out.push(n);
    else if (n.t === "br") out.push(<br key={i} />);
    else if (n.t === "a")
      out.push(
        <a key={i} href={n.href} rel="noopener">
          {inline(n.c)}
        </a>,
      );
    else if (n.t === "em") out.push(<em key={i}>{inline(n.c)}</em>);
    else out.push(<strong key={i}>{inline(n.c)}</strong>);
  }
  return out;
}

function block(b: LongFormBlock, key: number, tight: boolean): ReactNode {
  if (b.t === "p") return tight ? <Fragment key={key}>{inline(b.c)}</Fragment> : <p key={key}>{inline(b.c)}</p>;
  if (b.t === "h") {
    const H = `h${b.level}` as "h2" | "h3" | "h4";
    return <H key={key}>{inline(b.c)}</H>;
  }
  const items: ReactNode[] = [];
  for (let i = 0; i < b.items.length; i++) items.push(<li key={i}>{blocks(b.items[i]!, b.tight)}</li>);
  return b.t === "ol" ? (
    <ol key={key} start={b.start === 1 ? undefined : b.start}>
      {items}
    </ol>
  ) : (
    <ul key={key}>{items}</ul>
  );
}

function blocks(list: LongFormBlock[], tight = false): ReactNode[] {
  const out: ReactNode[] = [];
  for (let i = 0; i < list.length; i++) out.push(block(list[i]!, i, tight));
  return out;
}

export function LongForm({ blocks: list }: { blocks: LongFormBlock[] }) {
  return (
    <section className="lf" aria-label="About">
      {blocks(list)}
    </section>
  );
}
