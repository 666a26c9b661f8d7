/** A screen another part of the product fills in; its header is in place. */
export function Placeholder({ title, subtitle }: { title: string; subtitle?: string }) {
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title" className="text-2xl font-bold">
        {title}
      </h1>
      {subtitle ? <p className="mt-1 text-slate-600">{subtitle}</p> : null}
    </section>
  );
}
