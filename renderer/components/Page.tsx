/**
 * The public page. React components rendered to static HTML with react-dom/server; the same
 * components draw the dashboard's live preview. Pure: no node: APIs.
 */
import type { PageLink, PagePlan, PageSnapshot, PageSocialLink } from "#core/model.ts";
import { getPlatform } from "#core/platforms.ts";
import { REPORT_REASONS } from "#core/limits.ts";
import { visibleContentOf } from "#core/visible-content.ts";
import { safeHref, safeSrc } from "./safe-href.ts";

export interface PageProps {
  snapshot: PageSnapshot;
  plan: PagePlan;
  now: Date;
  mode?: "published" | "preview";
}

export function vcfFileName(link: PageLink): string {
  return `contact-${link.id.replace(/[^A-Za-z0-9_-]/g, "")}.vcf`;
}

function Picture({ snapshot }: { snapshot: PageSnapshot }) {
  const p = snapshot.profile;
  const name = p.displayName || p.username;
  if (p.profilePictureStyle === "hidden") return null;
  const src = safeSrc(p.profilePictureUrl);
  if (p.profilePictureStyle === "initials" || !src) {
    const initials = (p.initialsText || name.slice(0, 2)).slice(0, 3).toUpperCase();
    const bg = /^#[0-9a-fA-F]{6}$/.test(p.initialsBgColor) ? p.initialsBgColor : "#6366f1";
    return (
      <div className="pic ini" style={{ background: bg }} aria-hidden="true">
        {initials}
      </div>
    );
  }
  if (p.profilePictureStyle === "full_width") {
    return <img className={`pic fw fw-${p.profilePictureFullwidthSubtype}`} src={src} alt={name} />;
  }
  return <img className={`pic ic ic-${p.profilePictureIconSubtype}`} src={src} alt={name} width={96} height={96} />;
}

function Socials({ socials, qr, position }: { socials: PageSocialLink[]; qr: boolean; position: string }) {
  if (socials.length === 0 && !qr) return null;
  return (
    <nav className={`soc soc-${position}`} aria-label="Social links">
      {socials.map((s) => {
        const href = safeHref(s.url);
        const platform = getPlatform(s.platform);
        if (!href || !platform) return null;
        return (
          <a key={s.id} href={href} rel="noopener" aria-label={platform.name} data-social={s.platform}>
            <span aria-hidden="true">{platform.name.slice(0, 2)}</span>
          </a>
        );
      })}
      {qr ? (
        <button type="button" data-act="qr" aria-label="Show QR code">
          <span aria-hidden="true">QR</span>
        </button>
      ) : null}
    </nav>
  );
}

function LinkItem({ link, base }: { link: PageLink; base: string }) {
  const thumb = safeSrc(link.thumbnailUrl);
  const cls = `btn${link.isMainButton ? " main" : ""}`;
  const inner = (
    <>
      {thumb ? <img className="th" src={thumb} alt="" width={32} height={32} /> : null}
      <span>{link.title}</span>
    </>
  );
  switch (link.linkType) {
    case "label":
      return <h2 className="lbl">{link.title}</h2>;
    case "text_link": {
      const href = safeHref(link.data.url ?? link.url);
      return (
        <p className="txt">
          {href ? <a href={href} rel="noopener" data-link={link.id}>{link.data.text || link.title}</a> : link.data.text || link.title}
        </p>
      );
    }
    case "lead_magnet":
      return (
        <button type="button" className={cls} data-act="lead" data-link={link.id} data-title={link.title} data-desc={link.data.description ?? ""}>
          {inner}
        </button>
      );
    case "vcf":
      return (
        <a className={cls} href={`${base}/${vcfFileName(link)}`} download data-link={link.id}>
          {inner}
        </a>
      );
    default: {
      const href = safeHref(link.url);
      if (!href) return null;
      return (
        <>
          <a className={cls} href={href} rel="noopener" data-link={link.id}>
            {inner}
          </a>
          {link.linkType === "donation" && link.data.message ? <p className="msg">{link.data.message}</p> : null}
        </>
      );
    }
  }
}

export function Page({ snapshot, plan, now, mode = "published" }: PageProps) {
  const { profile } = snapshot;
  const v = visibleContentOf(snapshot, plan, now);
  const name = profile.displayName || profile.username;
  const base = `/${encodeURIComponent(profile.username)}`;
  const pos = profile.socialLinksPosition;
  const socials = <Socials socials={v.socialLinks} qr={profile.qrCodeVisible} position={pos} />;
  const listIds = new Set(snapshot.lists.map((l) => l.id));
  const top = v.links.filter((l) => !l.parentListId || !listIds.has(l.parentListId));
  const lists = [...snapshot.lists].sort((a, b) => a.orderIndex - b.orderIndex);
  return (
    <>
      {mode === "preview" ? (
        <div className="pv" role="status">
          Preview mode: this is your unpublished draft.
        </div>
      ) : null}
      <main className="pg">
        <header className="hd">
          <Picture snapshot={snapshot} />
          <h1>{name}</h1>
          {profile.bio ? <p className="bio">{profile.bio}</p> : null}
          {pos === "top" ? socials : null}
        </header>
        {v.longFormText ? <section className="lf" aria-label="About">{v.longFormText}</section> : null}
        <ul className="ls">
          {top.map((l) => (
            <li key={l.id}>
              <LinkItem link={l} base={base} />
            </li>
          ))}
        </ul>
        {lists.map((list) => {
          const items = v.links.filter((l) => l.parentListId === list.id);
          if (items.length === 0) return null;
          return (
            <section key={list.id} className="grp" aria-label={list.title}>
              <h2 className="lbl">{list.title}</h2>
              <ul className="ls">
                {items.map((l) => (
                  <li key={l.id}>
                    <LinkItem link={l} base={base} />
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
        {pos !== "top" ? socials : null}
      </main>
      <footer className="ft">
        <button type="button" data-act="share">Share This Page</button>
        <button type="button" data-act="report">Report</button>
        <button type="button" data-act="cookies">Cookie Settings</button>
        {v.showBranding ? (
          <p className="brand">
            Powered by <a href="/">Plinth</a>
          </p>
        ) : null}
      </footer>
      <dialog id="dlg-qr" aria-labelledby="dlg-qr-t">
        <h2 id="dlg-qr-t">QR Code</h2>
        <img src={`${base}/qr.svg`} alt={`QR code for ${name}'s page`} width={200} height={200} loading="lazy" />
        <form method="dialog"><button>Close</button></form>
      </dialog>
      <dialog id="dlg-report" aria-labelledby="dlg-report-t">
        <form data-form="report" noValidate>
          <h2 id="dlg-report-t">Report this page</h2>
          <label htmlFor="rp-reason">Reason</label>
          <select id="rp-reason" name="reason" defaultValue="">
            <option value="">Select a reason</option>
            {REPORT_REASONS.map((r) => (
              <option key={r} value={r}>{r[0]!.toUpperCase() + r.slice(1)}</option>
            ))}
          </select>
          <label htmlFor="rp-details">Details (optional)</label>
          <textarea id="rp-details" name="details" maxLength={1000} />
          <p className="err" role="alert" />
          <button type="submit">Submit Report</button>
          <button type="button" data-close="">Cancel</button>
        </form>
      </dialog>
      <dialog id="dlg-lead" aria-labelledby="dlg-lead-t">
        <form data-form="lead" noValidate>
          <h2 id="dlg-lead-t">Get your download</h2>
          <p className="desc" />
          <label htmlFor="ld-email">Email address</label>
          <input id="ld-email" name="email" type="email" autoComplete="email" />
          <p className="err" role="alert" />
          <button type="submit">Send Download Link</button>
          <button type="button" data-close="">Cancel</button>
        </form>
      </dialog>
      <div id="cookie" className="ck" role="region" aria-label="Cookie consent" hidden>
        <p>
          We use cookies to improve your experience. <a href="/privacy">Privacy Policy</a>
        </p>
        <div id="ck-prefs" hidden>
          <label><input type="checkbox" checked disabled /> Essential</label>
          <label><input type="checkbox" name="analytics" /> Analytics</label>
          <label><input type="checkbox" name="marketing" /> Marketing</label>
          <button type="button" data-ck="save">Save Preferences</button>
        </div>
        <button type="button" data-ck="customize">Customize</button>
        <button type="button" data-ck="decline">Decline Non-Essential</button>
        <button type="button" data-ck="accept">Accept All</button>
      </div>
      <div id="toast" role="status" aria-live="polite" />
    </>
  );
}
