/**
 * The public page: React components rendered to static HTML with react-dom/server, with no framework
 * at runtime (renderer/visitor/main.ts adds the dialogs' behaviour). Pure: no node: APIs, no style
 * attributes (the CSP allows only the hashed stylesheet), every URL through safe-href.
 */
import type { ReactNode } from "react";
import type { PageLink, PagePlan, PageSnapshot, PageSocialLink } from "#core/model.ts";
import { getPlatform } from "#core/platforms.ts";
import { REPORT_REASONS } from "#core/limits.ts";
import { visibleContentOf, type VisibleContent } from "#core/visible-content.ts";
import { BrandIcon, Icon, type UiIcon } from "./icons.tsx";
import { safeHref, safeSrc } from "./safe-href.ts";
import { vcardFields, vcfFileName } from "./vcard.ts";

export interface PageProps {
  snapshot: PageSnapshot;
  plan: PagePlan;
  now: Date;
  mode?: "published" | "preview";
  /** Where Plinth is served (privacy page, branding link); "" for same-site links. */
  origin?: string;
  /** What the page shows, when the caller has already computed it. */
  content?: VisibleContent;
}

/** Visitor-facing texts of the page and its dialogs (spec section 8, Public page). */
export const PAGE_TEXTS = {
  previewBanner: "Preview: this is your unpublished draft. Visitors still see your published page.",
  share: "Share This Page",
  report: "Report",
  cookieSettings: "Cookie Settings",
  reportTitle: "Report this page",
  reportReason: "Reason",
  reportReasonPlaceholder: "Select a reason",
  reportDetails: "Details (optional)",
  reportSubmit: "Submit Report",
  leadTitle: "Get your download",
  leadEmail: "Email address",
  leadSubmit: "Send Download Link",
  leadDoneTitle: "Check your email",
  leadDownload: "Download now",
  cancel: "Cancel",
  close: "Close",
  qrTitle: "QR Code",
  qrDownload: "Download QR code",
  contactDownload: "Download contact card",
  cookieTitle: "Cookies on this page",
  cookieText: "This page uses only what it needs to work. With your consent it may also use analytics and marketing cookies.",
  cookiePrivacy: "Privacy Policy",
  cookieCustomize: "Customize",
  cookieDecline: "Decline Non-Essential",
  cookieAccept: "Accept All",
  cookieSave: "Save Preferences",
  cookiePrefs: "Cookie preferences",
} as const;

export const REPORT_REASON_LABELS: Record<(typeof REPORT_REASONS)[number], string> = {
  spam: "Spam",
  harassment: "Harassment or bullying",
  inappropriate: "Inappropriate content",
  copyright: "Copyright violation",
  impersonation: "Impersonation",
  other: "Other",
};

/** The initials shown for the "initials" style: at most 2 letters, upper case (spec section 5). */
export function initialsOf(initialsText: string, name: string): string {
  const own = [...initialsText.trim()].filter((c) => /\p{L}|\p{N}/u.test(c)).slice(0, 2).join("");
  if (own) return own.toUpperCase();
  const words = name.trim().split(/\s+/).filter(Boolean);
  const derived = words.length > 1 ? [...words[0]!][0]! + [...words[1]!][0]! : [...(words[0] ?? "")].slice(0, 2).join("");
  return derived.toUpperCase() || "?";
}

function Picture({ snapshot, name }: { snapshot: PageSnapshot; name: string }) {
  const p = snapshot.profile;
  if (p.profilePictureStyle === "hidden") return null;
  const src = safeSrc(p.profilePictureUrl);
  if (p.profilePictureStyle === "initials" || !src) {
    return (
      <div className="pic ini" aria-hidden="true">
        {initialsOf(p.initialsText, name)}
      </div>
    );
  }
  if (p.profilePictureStyle === "full_width") {
    const h = { portrait: 1067, square: 800, landscape: 450 }[p.profilePictureFullwidthSubtype];
    return <img className={`pic fw fw-${p.profilePictureFullwidthSubtype}`} src={src} alt={name} width={800} height={h} />;
  }
  return <img className={`pic ic ic-${p.profilePictureIconSubtype}`} src={src} alt={name} width={96} height={96} />;
}

function Socials({ socials, qr, position }: { socials: PageSocialLink[]; qr: boolean; position: string }) {
  const items = socials.flatMap((s) => {
    const href = safeHref(s.url);
    const platform = getPlatform(s.platform);
    return href && platform ? [{ s, href, platform }] : [];
  });
  if (items.length === 0 && !qr) return null;
  return (
    <ul className={`soc soc-${position}`} aria-label="Social links">
      {items.map(({ s, href, platform }) => (
        <li key={s.id}>
          <a href={href} rel="noopener" aria-label={platform.name} title={platform.name} data-social={s.platform}>
            <BrandIcon platform={platform.id} />
          </a>
        </li>
      ))}
      {qr ? (
        <li>
          <button type="button" data-act="qr" aria-label="Show QR code" title="QR code">
            <Icon name="qr" size={22} />
          </button>
        </li>
      ) : null}
    </ul>
  );
}

const TYPE_ICONS: Partial<Record<string, UiIcon>> = { donation: "heart", lead_magnet: "download", vcf: "contact", music: "music", qr_code: "qr" };

function ButtonInner({ link }: { link: PageLink }) {
  const thumb = safeSrc(link.thumbnailUrl);
  const icon = TYPE_ICONS[link.linkType];
  return (
    <>
      {thumb ? <img className="th" src={thumb} alt="" width={40} height={40} loading="lazy" /> : icon ? <Icon name={icon} /> : null}
      {link.title}
    </>
  );
}

/** A link's markup; null when it draws nothing (a button whose URL is refused). */
function linkItem(link: PageLink, base: string, vcfDialog: string | undefined): ReactNode {
  const cls = link.isMainButton ? "btn main" : "btn";
  // The switch is on string: the public page also draws types the editor does not create (qr_code)
  // and must survive any type a newer version might store.
  switch (link.linkType as string) {
    case "label":
      return <h2 className="lbl">{link.title}</h2>;
    case "text_link": {
      const href = safeHref(link.data.url || link.url);
      const text = link.data.text || link.title;
      return <p className="txt">{href ? <a href={href} rel="noopener" data-link={link.id}>{text}</a> : text}</p>;
    }
    case "lead_magnet":
      return (
        <button type="button" className={cls} data-act="lead" data-link={link.id} data-title={link.title} data-desc={link.data.description ?? ""}>
          <ButtonInner link={link} />
        </button>
      );
    case "vcf":
      // Without the script the link still downloads the card.
      return (
        <a className={cls} href={`${base}/${vcfFileName(link)}`} download data-act="vcf" data-dlg={vcfDialog} data-link={link.id}>
          <ButtonInner link={link} />
        </a>
      );
    case "qr_code":
      return (
        <button type="button" className={cls} data-act="qr" data-link={link.id}>
          <ButtonInner link={link} />
        </button>
      );
    default: {
      const href = safeHref(link.url);
      if (!href) return null;
      return (
        <>
          <a className={cls} href={href} rel="noopener" data-link={link.id}>
            <ButtonInner link={link} />
          </a>
          {link.linkType === "donation" && link.data.message ? <p className="msg">{link.data.message}</p> : null}
        </>
      );
    }
  }
}

function LinkList({ links, base, vcfDialogs }: { links: PageLink[]; base: string; vcfDialogs: Map<string, string> }) {
  return (
    <ul className="ls">
      {links.map((l) => {
        // A link that draws nothing is left out, list item and all.
        const item = linkItem(l, base, vcfDialogs.get(l.id));
        return item === null ? null : <li key={l.id}>{item}</li>;
      })}
    </ul>
  );
}

/** The part of the page that changes from page to page. */
export function PageBody({ snapshot, plan, now, mode = "published", origin = "", content }: PageProps) {
  const { profile } = snapshot;
  const v = content ?? visibleContentOf(snapshot, plan, now);
  const name = profile.displayName.trim() || profile.username;
  const base = `/${encodeURIComponent(profile.username)}`;
  const url = `${origin}${base}`;
  const pos = profile.socialLinksPosition;
  const socials = <Socials socials={v.socialLinks} qr={profile.qrCodeVisible} position={pos} />;
  const cards = v.links.filter((l) => l.linkType === "vcf");
  const vcfDialogs = new Map(cards.map((l, i) => [l.id, `d-vcf-${i}`]));
  const top = v.main ? [v.main, ...v.ungrouped] : v.ungrouped;
  return (
    <>
      {mode === "preview" ? (
        <div className="pv" role="status">
          {PAGE_TEXTS.previewBanner}
        </div>
      ) : null}
      <main className="pg">
        <header className="hd">
          <Picture snapshot={snapshot} name={name} />
          <h1>{name}</h1>
          {profile.bio.trim() ? <p className="bio">{profile.bio.trim()}</p> : null}
          {pos === "top" ? socials : null}
        </header>
        {top.length > 0 ? <LinkList links={top} base={base} vcfDialogs={vcfDialogs} /> : null}
        {v.groups.map((g, i) => (
          <section key={g.list.id} className="grp" aria-labelledby={`g-${i}`}>
            <h2 className="lbl" id={`g-${i}`}>
              {g.list.title}
            </h2>
            <LinkList links={g.links} base={base} vcfDialogs={vcfDialogs} />
          </section>
        ))}
        {v.longFormText ? (
          <section className="lf" aria-label="About">
            {v.longFormText}
          </section>
        ) : null}
        {pos === "bottom" ? socials : null}
      </main>
      {pos === "floating" ? socials : null}
      <footer className="ft">
        <button type="button" data-act="share">
          {PAGE_TEXTS.share}
        </button>
        <button type="button" data-act="report">
          {PAGE_TEXTS.report}
        </button>
        <button type="button" data-act="cookies">
          {PAGE_TEXTS.cookieSettings}
        </button>
        {v.showBranding ? (
          <p className="brand">
            <a href={`${origin}/`}>Powered by Plinth</a>
          </p>
        ) : null}
      </footer>
      <dialog id="d-qr" className="qr" aria-labelledby="d-qr-t">
        <h2 id="d-qr-t">{PAGE_TEXTS.qrTitle}</h2>
        <img src={`${base}/qr.svg`} alt={`QR code for ${url}`} width={250} height={250} loading="lazy" />
        <p className="u">{url}</p>
        <div className="acts">
          <a className="b2" href={`${base}/qr.svg`} download={`${profile.username}-qr.svg`}>
            <Icon name="download" size={18} />
            {PAGE_TEXTS.qrDownload}
          </a>
          <button type="button" className="b1" data-close="">
            {PAGE_TEXTS.close}
          </button>
        </div>
      </dialog>
      {cards.map((l, i) => {
        const f = vcardFields(l);
        const tel = f.phone.replace(/[^\d+]/g, "");
        return (
          <dialog key={l.id} id={`d-vcf-${i}`} aria-labelledby={`d-vcf-${i}-t`}>
            <h2 id={`d-vcf-${i}-t`}>{f.name}</h2>
            <dl className="card">
              {f.organization ? (
                <>
                  <dt>Organization</dt>
                  <dd>{f.organization}</dd>
                </>
              ) : null}
              {tel ? (
                <>
                  <dt>Phone</dt>
                  <dd>
                    <a href={`tel:${tel}`}>{f.phone}</a>
                  </dd>
                </>
              ) : null}
              {f.email ? (
                <>
                  <dt>Email</dt>
                  <dd>{safeHref(`mailto:${f.email}`) ? <a href={`mailto:${f.email}`}>{f.email}</a> : f.email}</dd>
                </>
              ) : null}
            </dl>
            <div className="acts">
              <button type="button" className="b2" data-close="">
                {PAGE_TEXTS.close}
              </button>
              <a className="b1" href={`${base}/${vcfFileName(l)}`} download>
                <Icon name="download" size={18} />
                {PAGE_TEXTS.contactDownload}
              </a>
            </div>
          </dialog>
        );
      })}
    </>
  );
}

/** The end of a dialog's form: its error line (filled by the visitor script), Cancel and submit. */
function FormEnd({ submit }: { submit: string }) {
  return (
    <>
      <p className="err" role="alert" />
      <div className="acts">
        <button type="button" className="b2" data-close="">
          {PAGE_TEXTS.cancel}
        </button>
        <button type="submit" className="b1">
          {submit}
        </button>
      </div>
    </>
  );
}

/** The part every page shares for one origin: report and lead dialogs, cookie banner, toast. */
export function PageChrome({ origin = "" }: { origin?: string }) {
  return (
    <>
      <dialog id="d-report" aria-labelledby="d-report-t">
        <form data-form="report" noValidate>
          <h2 id="d-report-t">{PAGE_TEXTS.reportTitle}</h2>
          <label htmlFor="rp-reason">{PAGE_TEXTS.reportReason}</label>
          <select id="rp-reason" name="reason" required defaultValue="">
            <option value="">{PAGE_TEXTS.reportReasonPlaceholder}</option>
            {REPORT_REASONS.map((r) => (
              <option key={r} value={r}>
                {REPORT_REASON_LABELS[r]}
              </option>
            ))}
          </select>
          <label htmlFor="rp-details">{PAGE_TEXTS.reportDetails}</label>
          <textarea id="rp-details" name="details" maxLength={2000} />
          <FormEnd submit={PAGE_TEXTS.reportSubmit} />
        </form>
      </dialog>
      <dialog id="d-lead" aria-labelledby="d-lead-t">
        <form data-form="lead" noValidate>
          <h2 id="d-lead-t">{PAGE_TEXTS.leadTitle}</h2>
          <p className="desc" />
          <label htmlFor="ld-email">{PAGE_TEXTS.leadEmail}</label>
          <input id="ld-email" name="email" type="email" autoComplete="email" maxLength={254} required />
          <FormEnd submit={PAGE_TEXTS.leadSubmit} />
        </form>
        <div className="done" hidden>
          <h2>{PAGE_TEXTS.leadDoneTitle}</h2>
          <p className="sent" />
          <div className="acts">
            <button type="button" className="b2" data-close="">
              {PAGE_TEXTS.close}
            </button>
            <a className="b1" href="#" target="_blank" rel="noopener" hidden>
              <Icon name="download" size={18} />
              {PAGE_TEXTS.leadDownload}
            </a>
          </div>
        </div>
      </dialog>
      <div id="ck" className="ck" role="region" aria-labelledby="ck-t">
        <h2 id="ck-t">{PAGE_TEXTS.cookieTitle}</h2>
        <p>
          {PAGE_TEXTS.cookieText} <a href={`${origin}/privacy`}>{PAGE_TEXTS.cookiePrivacy}</a>
        </p>
        <fieldset id="ck-p" hidden>
          <legend>{PAGE_TEXTS.cookiePrefs}</legend>
          <label>
            <input type="checkbox" name="essential" checked disabled />
            <span>
              Essential<small>Always on: needed for the page to work.</small>
            </span>
          </label>
          <label>
            <input type="checkbox" name="analytics" />
            <span>
              Analytics<small>Help the owner understand how the page is used.</small>
            </span>
          </label>
          <label>
            <input type="checkbox" name="marketing" />
            <span>
              Marketing<small>Allow content tailored to your interests.</small>
            </span>
          </label>
          <div className="acts">
            <button type="button" className="b1" data-ck="save">
              {PAGE_TEXTS.cookieSave}
            </button>
          </div>
        </fieldset>
        <div className="acts">
          <button type="button" className="b2" data-ck="customize" aria-expanded="false" aria-controls="ck-p">
            {PAGE_TEXTS.cookieCustomize}
          </button>
          <button type="button" className="b2" data-ck="decline">
            {PAGE_TEXTS.cookieDecline}
          </button>
          <button type="button" className="b1" data-ck="accept">
            {PAGE_TEXTS.cookieAccept}
          </button>
        </div>
      </div>
      <div id="toast" role="status" aria-live="polite" />
    </>
  );
}

/** The whole page body, for callers that render it in one go (the live preview). */
export function Page(props: PageProps) {
  return (
    <>
      <PageBody {...props} />
      <PageChrome origin={props.origin ?? ""} />
    </>
  );
}
