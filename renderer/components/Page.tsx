/**
 * The public page: React components rendered to static HTML with react-dom/server, with no framework
 * at runtime (renderer/visitor/main.ts adds the dialogs' behaviour). Pure: no node: APIs, no style
 * attributes (the CSP allows only the hashed stylesheet), every URL through safe-href.
 */
import type { ReactNode } from "react";
import { playerOf, type EmbedAspect, type RecognizedEmbed } from "#core/embeds.ts";
import type { PageLink, PagePlan, PageSnapshot, PageSocialLink } from "#core/model.ts";
import { musicService, parseMusicServices } from "#core/music.ts";
import { initialsOf, shownName } from "#core/initials.ts";
import { getPlatform, type PlatformId } from "#core/platforms.ts";
import { REPORT_REASON_LABELS, REPORT_REASONS } from "#core/limits.ts";
import { cropOutputSize } from "#core/profile.ts";
import type { FullwidthSubtype } from "#core/themes.ts";
import { contactSchemeOf } from "#core/url-rule.ts";
import { formatAmount, paidDownloadOf, PAYMENT_TEXTS, PAYMENTS, tipConfigOf } from "#core/payments.ts";
import { visibleContentOf, type VisibleContent } from "#core/visible-content.ts";
import type { LongFormBlock } from "../markdown.ts";
import type { BrandIconPaths } from "./brand-icons.ts";
import { BrandIcon, Icon, type UiIcon } from "./icons.tsx";
import { LongForm } from "./LongForm.tsx";
import { isMailable, linkHref, safeHref, safeSrc } from "./safe-href.ts";
import { qrFileName, vcardFields, vcfFileName } from "./vcard.ts";

export interface PageProps {
  snapshot: PageSnapshot;
  plan: PagePlan;
  now: Date;
  mode?: "published" | "preview";
  /** The preview banner's words, when not the draft's (History's preview of a version). */
  banner?: string;
  /** Where Plinth is served (privacy page, branding link); "" for same-site links. */
  origin?: string;
  /** Where visitors reach the page, when not `origin` (a bucket's CDN): its share and QR address. */
  pagesOrigin?: string;
  /** Where the API answers (the payment forms post there, ADR 231); "" for same-site. */
  apiOrigin?: string;
  /** The page's address when it is not `pagesOrigin/username`: its verified custom domain (ADR 240). */
  pageUrl?: string;
  /** What the page shows, when the caller has already computed it. */
  content?: VisibleContent;
  /**
   * The long-form text as drawn (renderer/markdown.ts longFormBlocks of the visible text). The
   * caller parses it, so the page's components carry no parser: the dashboard loads it on demand.
   */
  longForm?: LongFormBlock[];
  /**
   * The brand marks' path data (brand-icons.ts): the renderer hands in every mark, the dashboard's
   * preview the marks of the page's platforms once they have loaded.
   */
  icons: BrandIconPaths;
}

/** Visitor-facing texts of the page and its dialogs (docs/product.md section 8, Public page). */
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
  shareLink: "Page link",
  shareCopy: "Copy Link",
  shareOn: "Share on",
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

// Below, the data decisions (what is shown, which URLs survive, which variant) are made by plain
// functions, and the markup is drawn by small components.

type PictureKind = "initials" | "icon" | "full_width";

// Inside <picture>, React adds no preload of its own for the image (it would hoist one to the start
// of whatever it renders); the document's <head> preloads the picture instead (render.tsx).

function Picture(p: { kind: PictureKind; sub: string; src: string; name: string; initials: string }) {
  if (p.kind === "initials") {
    return (
      <div className="pic ini" aria-hidden="true">
        {p.initials}
      </div>
    );
  }
  if (p.kind === "full_width") {
    const size = cropOutputSize("full_width", p.sub as FullwidthSubtype);
    return (
      <picture>
        <img className={`pic fw fw-${p.sub}`} src={p.src} alt={p.name} width={size.width} height={size.height} />
      </picture>
    );
  }
  return (
    <picture>
      <img className={`pic ic ic-${p.sub}`} src={p.src} alt={p.name} width={96} height={96} />
    </picture>
  );
}

/**
 * The picture the page shows and how: a full-width page shows the full-width crop, and without one
 * the icon crop as an icon (never the square stretched across the page); null for initials.
 */
function shownPicture(profile: PageSnapshot["profile"]): { kind: "icon" | "full_width"; src: string } | null {
  if (profile.profilePictureStyle === "hidden" || profile.profilePictureStyle === "initials") return null;
  const wide = profile.profilePictureStyle === "full_width" ? safeSrc(profile.profilePictureFullwidthUrl) : null;
  if (wide) return { kind: "full_width", src: wide };
  const icon = safeSrc(profile.profilePictureUrl);
  return icon ? { kind: "icon", src: icon } : null;
}

/** The picture's URL when the page shows one (not hidden, not initials, and a URL we accept). */
export function pictureSrcOf(profile: PageSnapshot["profile"]): string | null {
  return shownPicture(profile)?.src ?? null;
}

function pictureOf(snapshot: PageSnapshot, name: string): ReactNode {
  const p = snapshot.profile;
  if (p.profilePictureStyle === "hidden") return null;
  const shown = shownPicture(p);
  if (!shown) return <Picture kind="initials" sub="" src="" name={name} initials={initialsOf(p.initialsText, name)} />;
  const full = shown.kind === "full_width";
  return <Picture kind={shown.kind} sub={full ? p.profilePictureFullwidthSubtype : p.profilePictureIconSubtype} src={shown.src} name={name} initials="" />;
}

function SocialItem({ href, name, platform, path }: { href: string; name: string; platform: PlatformId; path: string | undefined }) {
  return (
    <li>
      <a href={href} rel="noopener" aria-label={name} title={name} data-social={platform}>
        <BrandIcon platform={platform} path={path} />
      </a>
    </li>
  );
}

function SocialList({ position, qr, children }: { position: string; qr: boolean; children: ReactNode }) {
  return (
    <ul className={`soc soc-${position}`} aria-label="Social links">
      {children}
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

function socialsOf(socials: PageSocialLink[], qr: boolean, position: string, icons: BrandIconPaths): ReactNode {
  // Arrays here are built with push, never map(): see core/visible-content.ts.
  const items: ReactNode[] = [];
  for (let i = 0; i < socials.length; i++) {
    const s = socials[i]!;
    const href = safeHref(s.url);
    const platform = getPlatform(s.platform);
    if (href && platform) items.push(<SocialItem key={s.id} href={href} name={platform.name} platform={platform.id} path={icons[platform.id]} />);
  }
  if (items.length === 0 && !qr) return null;
  return (
    <SocialList position={position} qr={qr}>
      {items}
    </SocialList>
  );
}

const TYPE_ICONS: Partial<Record<string, UiIcon>> = { donation: "heart", lead_magnet: "download", vcf: "contact", music: "music", qr_code: "qr" };
/** A button to an e-mail, phone or text-message link shows what it opens. */
const CONTACT_ICONS: Partial<Record<string, UiIcon>> = { mailto: "mail", tel: "phone", sms: "message" };

/** What a button shows: its thumbnail (Plus) or its type's icon, then its title. */
interface ButtonFace {
  main: boolean;
  id: string;
  title: string;
  thumb: string | null;
  icon: UiIcon | undefined;
}

function ButtonInner({ thumb, icon, title }: Pick<ButtonFace, "thumb" | "icon" | "title">) {
  return (
    <>
      {thumb ? <img className="th" src={thumb} alt="" width={40} height={40} loading="lazy" /> : icon ? <Icon name={icon} /> : null}
      {title}
    </>
  );
}

const btnClass = (main: boolean) => (main ? "btn main" : "btn");

// An item a visitor cannot click names its link by data-item: data-link is what a click reports.
function LabelItem({ id, title }: { id: string; title: string }) {
  return (
    <li>
      <h2 className="lbl" data-item={id}>
        {title}
      </h2>
    </li>
  );
}

/** noopener for web pages; an e-mail, phone or text-message link opens an app, in no window to guard. */
const relOf = (href: string) => (/^https?:/i.test(href) ? "noopener" : undefined);

function TextItem({ href, id, text }: { href: string | null; id: string; text: string }) {
  return (
    <li>
      <p className="txt" data-item={href ? undefined : id}>
        {href ? (
          <a href={href} rel={relOf(href)} data-link={id}>
            {text}
          </a>
        ) : (
          text
        )}
      </p>
    </li>
  );
}

function LeadItem(f: ButtonFace & { description: string }) {
  return (
    <li>
      <button type="button" className={btnClass(f.main)} data-act="lead" data-link={f.id} data-title={f.title} data-desc={f.description}>
        <ButtonInner thumb={f.thumb} icon={f.icon} title={f.title} />
      </button>
    </li>
  );
}

// Without the script the link still downloads the card.
function CardItem(f: ButtonFace & { href: string; dialog: string | undefined }) {
  return (
    <li>
      <a className={btnClass(f.main)} href={f.href} download data-act="vcf" data-dlg={f.dialog} data-link={f.id}>
        <ButtonInner thumb={f.thumb} icon={f.icon} title={f.title} />
      </a>
    </li>
  );
}

function QrItem(f: ButtonFace) {
  return (
    <li>
      <button type="button" className={btnClass(f.main)} data-act="qr" data-link={f.id}>
        <ButtonInner thumb={f.thumb} icon={f.icon} title={f.title} />
      </button>
    </li>
  );
}

function LinkItem(f: ButtonFace & { href: string; message: string | null }) {
  return (
    <li>
      <a className={btnClass(f.main)} href={f.href} rel={relOf(f.href)} data-link={f.id}>
        <ButtonInner thumb={f.thumb} icon={f.icon} title={f.title} />
      </a>
      {f.message ? <p className="msg">{f.message}</p> : null}
    </li>
  );
}

/** The brand marks the page has for a service (brand-icons.ts); the others show the music note. */
const SERVICE_MARKS: Partial<Record<string, PlatformId>> = { youtube: "youtube", youtube_music: "youtube", vimeo: "vimeo", spotify: "spotify", soundcloud: "soundcloud", tiktok: "tiktok" };
const ASPECT_CLASS: Record<EmbedAspect, string> = { "16/9": "a-v", "9/16": "a-p", "wide-audio": "a-w", "tall-audio": "a-t" };

function ServiceMark({ service, icons }: { service: string; icons: BrandIconPaths }) {
  const platform = SERVICE_MARKS[service];
  return platform ? <BrandIcon platform={platform} path={icons[platform]} /> : <Icon name="music" size={22} />;
}

/**
 * A player (ADR 212): a facade drawn by the page, the service's mark, the title and a play mark, in
 * the box the player will fill. It is a plain link to the address; the visitor script turns it into
 * a play button that swaps in the service's embed (data-embed). Nothing loads from the service before.
 */
function PlayerItem({ id, title, href, embed, icons }: { id: string; title: string; href: string; embed: RecognizedEmbed; icons: BrandIconPaths }) {
  return (
    <li>
      <a className={`ply ${ASPECT_CLASS[embed.aspect]}`} href={href} rel="noopener" data-link={id} data-embed={embed.embedUrl}>
        <ServiceMark service={embed.service} icons={icons} />
        <span className="pt">
          {title}
          <span className="sr"> ({embed.label})</span>
        </span>
        <span className="pp">
          <Icon name="play" size={28} />
        </span>
      </a>
    </li>
  );
}

/** A Music release: its cover, its title, and a button per service in the owner's order. */
function MusicItem({ id, title, cover, services, icons }: { id: string; title: string; cover: string | null; services: { service: string; label: string; url: string }[]; icons: BrandIconPaths }) {
  const buttons: ReactNode[] = [];
  for (const s of services) {
    buttons.push(
      <li key={s.service}>
        <a className="msv" href={s.url} rel="noopener" data-link={id}>
          <ServiceMark service={s.service} icons={icons} />
          {s.label}
        </a>
      </li>,
    );
  }
  return (
    <li>
      <div className="mus">
        {cover ? <img className="cv" src={cover} alt="" width={96} height={96} loading="lazy" /> : <span className="cv"><Icon name="music" size={36} /></span>}
        <p className="mt">{title}</p>
        <ul className="msl" aria-label={`Listen to ${title}`}>
          {buttons}
        </ul>
      </div>
    </li>
  );
}

/** The services a Music link shows: the stored list, each address one the page would link to. */
function musicServicesOf(link: PageLink): { service: string; label: string; url: string }[] {
  const out: { service: string; label: string; url: string }[] = [];
  for (const s of parseMusicServices(link.data.services)) out.push({ service: s.service, label: musicService(s.service)!.label, url: s.url });
  return out;
}

/** A contact link's card: its dialog's id and its .vcf file's address. */
interface CardRef {
  dialog: string;
  file: string;
}

/**
 * A Tip (ADR 231): a form posting to Plinth's checkout endpoint, one button per suggested amount,
 * an amount of the visitor's own when the creator allows it, and a note. Plain HTML: it works
 * without the visitor script and from any host; the server decides what is charged.
 */
function TipItem({ id, title, action, amounts, currency, custom, min, max }: { id: string; title: string; action: string; amounts: number[]; currency: string; custom: boolean; min: number; max: number }) {
  const buttons: ReactNode[] = [];
  for (let i = 0; i < amounts.length; i++) {
    const a = amounts[i]!;
    buttons.push(
      <button key={a} type="submit" className="btn" name="amount" value={String(a)}>
        {formatAmount(a, currency)}
      </button>,
    );
  }
  return (
    <li>
      <form className="pay" method="post" action={action} aria-labelledby={`t-${id}`} data-link={id}>
        <p className="mt" id={`t-${id}`}>
          {title}
        </p>
        {buttons.length ? <div className="amts">{buttons}</div> : null}
        {custom ? (
          <div className="own">
            <label htmlFor={`c-${id}`}>
              {PAYMENT_TEXTS.otherAmount} ({formatAmount(min, currency)} – {formatAmount(max, currency)})
            </label>
            <input id={`c-${id}`} name="custom" inputMode="decimal" autoComplete="off" maxLength={12} />
            <button type="submit" className="btn" name="amount" value="custom">
              {PAYMENT_TEXTS.tip}
            </button>
          </div>
        ) : null}
        <label htmlFor={`n-${id}`}>{PAYMENT_TEXTS.note}</label>
        <textarea id={`n-${id}`} name="note" rows={2} maxLength={PAYMENTS.NOTE_MAX} />
        <label className="chk">
          <input type="checkbox" name="private" value="on" /> {PAYMENT_TEXTS.notePrivate}
        </label>
      </form>
    </li>
  );
}

/** A Paid download (ADR 231): its cover, title, description and a Buy button posting to Plinth's checkout endpoint. */
function DownloadItem({ id, title, action, price, cover, description, main }: { id: string; title: string; action: string; price: string; cover: string | null; description: string; main: boolean }) {
  return (
    <li>
      <form className="pay" method="post" action={action} aria-labelledby={`t-${id}`} data-link={id}>
        {cover ? <img className="cv" src={cover} alt="" width={96} height={96} loading="lazy" /> : null}
        <p className="mt" id={`t-${id}`}>
          {title}
        </p>
        {description ? <p className="msg">{description}</p> : null}
        <button type="submit" className={btnClass(main)}>
          {PAYMENT_TEXTS.buy} · {price}
        </button>
      </form>
    </li>
  );
}

/** A link's list item; null when it draws nothing (a button whose URL is refused). */
function linkItem(link: PageLink, card: CardRef | undefined, icons: BrandIconPaths, payTo: string): ReactNode {
  // Props are spelled out rather than spread from one object: V8 copies a spread slowly, and bulk
  // republish draws every link of every page through here.
  const { id, title, isMainButton: main } = link;
  const thumb = safeSrc(link.thumbnailUrl);
  const icon = TYPE_ICONS[link.linkType];
  // The switch is on string: the public page also draws types the editor does not create (qr_code)
  // and must survive any type a newer version might store.
  switch (link.linkType as string) {
    case "label":
      return <LabelItem key={id} id={id} title={title} />;
    case "text_link":
      return <TextItem key={id} href={linkHref(link)} id={id} text={link.data.text || title} />;
    case "lead_magnet":
      return <LeadItem key={id} main={main} id={id} title={title} thumb={thumb} icon={icon} description={link.data.description ?? ""} />;
    case "vcf":
      return <CardItem key={id} main={main} id={id} title={title} thumb={thumb} icon={icon} href={card!.file} dialog={card!.dialog} />;
    case "qr_code":
      return <QrItem key={id} main={main} id={id} title={title} thumb={thumb} icon={icon} />;
    case "music": {
      const services = musicServicesOf(link);
      if (services.length === 0) return null;
      return <MusicItem key={id} id={id} title={title} cover={thumb} services={services} icons={icons} />;
    }
    case "tip": {
      const tip = tipConfigOf(link.data);
      if (!tip) return null;
      return <TipItem key={id} id={id} title={title} action={`${payTo}/${encodeURIComponent(id)}`} amounts={tip.amounts} currency={tip.currency} custom={tip.custom} min={tip.min} max={tip.max} />;
    }
    case "paid_download": {
      const item = paidDownloadOf(link.data);
      if (!item) return null;
      const price = formatAmount(item.price, item.currency);
      return <DownloadItem key={id} id={id} title={title} action={`${payTo}/${encodeURIComponent(id)}`} price={price} cover={safeSrc(item.cover)} description={item.description} main={main} />;
    }
    case "social": {
      const href = linkHref(link);
      const platform = getPlatform(link.data.platform ?? "");
      if (!href) return null;
      return (
        <li key={id}>
          <a className={btnClass(main)} href={href} rel="noopener" data-link={id}>
            {platform ? <BrandIcon platform={platform.id} path={icons[platform.id]} /> : null}
            {title}
          </a>
        </li>
      );
    }
    default: {
      const href = linkHref(link);
      if (!href) return null;
      const embed = playerOf(link);
      if (embed) return <PlayerItem key={id} id={id} title={title} href={href} embed={embed} icons={icons} />;
      const message = link.linkType === "donation" ? link.data.message || null : null;
      return <LinkItem key={id} main={main} id={id} title={title} thumb={thumb} icon={icon ?? CONTACT_ICONS[contactSchemeOf(href) ?? ""]} href={href} message={message} />;
    }
  }
}

function LinkList({ children }: { children: ReactNode }) {
  return <ul className="ls">{children}</ul>;
}

function LinkGroup({ labelId, title, children }: { labelId: string; title: string; children: ReactNode }) {
  return (
    <section className="grp" aria-labelledby={labelId}>
      <h2 className="lbl" id={labelId}>
        {title}
      </h2>
      <ul className="ls">{children}</ul>
    </section>
  );
}

function ContactDialog(c: {
  dialogId: string;
  name: string;
  organization: string;
  phone: string;
  tel: string;
  email: string;
  emailLink: boolean;
  file: string;
}) {
  return (
    <dialog id={c.dialogId} aria-labelledby={`${c.dialogId}-t`}>
      <h2 id={`${c.dialogId}-t`}>{c.name}</h2>
      <dl className="card">
        {c.organization ? (
          <>
            <dt>Organization</dt>
            <dd>{c.organization}</dd>
          </>
        ) : null}
        {c.tel ? (
          <>
            <dt>Phone</dt>
            <dd>
              <a href={`tel:${c.tel}`}>{c.phone}</a>
            </dd>
          </>
        ) : null}
        {c.email ? (
          <>
            <dt>Email</dt>
            <dd>{c.emailLink ? <a href={`mailto:${c.email}`}>{c.email}</a> : c.email}</dd>
          </>
        ) : null}
      </dl>
      <div className="acts">
        <button type="button" className="b2" data-close="">
          {PAGE_TEXTS.close}
        </button>
        <a className="b1" href={c.file} download>
          <Icon name="download" size={18} />
          {PAGE_TEXTS.contactDownload}
        </a>
      </div>
    </dialog>
  );
}

function contactDialog(link: PageLink, card: CardRef): ReactNode {
  const f = vcardFields(link);
  return (
    <ContactDialog
      key={link.id}
      dialogId={card.dialog}
      name={f.name}
      organization={f.organization}
      phone={f.phone}
      tel={f.phone.replace(/[^\d+]/g, "")}
      email={f.email}
      emailLink={isMailable(f.email)}
      file={card.file}
    />
  );
}

/** The end of a dialog that shows the page's QR code: download it, or close. */
function QrActions({ src, file }: { src: string; file: string }) {
  return (
    <div className="acts">
      <a className="b2" href={src} download={file}>
        <Icon name="download" size={18} />
        {PAGE_TEXTS.qrDownload}
      </a>
      <button type="button" className="b1" data-close="">
        {PAGE_TEXTS.close}
      </button>
    </div>
  );
}

/** A query parameter's value; a lone surrogate (which encodeURIComponent refuses) becomes U+FFFD. */
function encodeParam(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return encodeURIComponent(s.replace(/[\ud800-\udfff]/g, "\ufffd"));
  }
}

/** The networks the share dialog offers, as plain share links (no script of theirs on the page). */
const SHARE_NETWORKS: [name: string, href: (url: string, title: string) => string][] = [
  ["X", (u, t) => `https://x.com/intent/post?url=${u}&text=${t}`],
  ["Facebook", (u) => `https://www.facebook.com/sharer/sharer.php?u=${u}`],
  ["LinkedIn", (u) => `https://www.linkedin.com/sharing/share-offsite/?url=${u}`],
  ["WhatsApp", (u, t) => `https://wa.me/?text=${t}%20${u}`],
  ["Telegram", (u, t) => `https://t.me/share/url?url=${u}&text=${t}`],
  ["Email", (u, t) => `mailto:?subject=${t}&body=${u}`],
];

/**
 * Share This Page where the device has no share sheet: the address to copy, the main networks and
 * the page's QR code. The visitor script opens it and copies; the links work on their own.
 */
function ShareDialog({ url, title, qrSrc, qrFile }: { url: string; title: string; qrSrc: string; qrFile: string }) {
  const u = encodeParam(url);
  const t = encodeParam(title);
  const networks: ReactNode[] = [];
  for (const [name, href] of SHARE_NETWORKS) {
    networks.push(
      <li key={name}>
        <a className="b2" href={href(u, t)} target="_blank" rel="noopener">
          {name}
        </a>
      </li>,
    );
  }
  return (
    <dialog id="d-share" className="sh" aria-labelledby="d-share-t">
      <h2 id="d-share-t">{PAGE_TEXTS.share}</h2>
      <label htmlFor="sh-url">{PAGE_TEXTS.shareLink}</label>
      <div className="cp">
        <input id="sh-url" type="text" readOnly value={url} />
        <button type="button" className="b1" data-act="copy">
          {PAGE_TEXTS.shareCopy}
        </button>
      </div>
      <p className="cpd" role="status" />
      <ul className="net" aria-label={PAGE_TEXTS.shareOn}>
        {networks}
      </ul>
      <img src={qrSrc} alt={`QR code for ${url}`} width={160} height={160} loading="lazy" />
      <QrActions src={qrSrc} file={qrFile} />
    </dialog>
  );
}

interface LayoutProps {
  /** The preview banner's words; null on a published page. */
  preview: string | null;
  picture: ReactNode;
  name: string;
  bio: string;
  position: PageSnapshot["profile"]["socialLinksPosition"];
  socials: ReactNode;
  top: ReactNode;
  groups: ReactNode;
  longForm: LongFormBlock[] | undefined;
  branding: boolean;
  home: string;
  url: string;
  shareTitle: string;
  qrSrc: string;
  qrFile: string;
  cards: ReactNode;
}

function PageLayout(p: LayoutProps) {
  return (
    <>
      {p.preview !== null ? (
        <div className="pv" role="status">
          {p.preview}
        </div>
      ) : null}
      {/* Focusable from script only: where focus goes when the cookie banner it left closes. */}
      <main className="pg" tabIndex={-1}>
        <header className="hd">
          {p.picture}
          <h1>{p.name}</h1>
          {p.bio ? <p className="bio">{p.bio}</p> : null}
          {p.position === "top" ? p.socials : null}
        </header>
        {p.top}
        {p.groups}
        {p.longForm?.length ? <LongForm blocks={p.longForm} /> : null}
        {p.position === "bottom" ? p.socials : null}
      </main>
      {p.position === "floating" ? p.socials : null}
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
        {p.branding ? (
          <p className="brand">
            <a href={p.home}>Powered by Plinth</a>
          </p>
        ) : null}
      </footer>
      <dialog id="d-qr" className="qr" aria-labelledby="d-qr-t">
        <h2 id="d-qr-t">{PAGE_TEXTS.qrTitle}</h2>
        <img src={p.qrSrc} alt={`QR code for ${p.url}`} width={250} height={250} loading="lazy" />
        <p className="u">{p.url}</p>
        <QrActions src={p.qrSrc} file={p.qrFile} />
      </dialog>
      <ShareDialog url={p.url} title={p.shareTitle} qrSrc={p.qrSrc} qrFile={p.qrFile} />
      {p.cards}
    </>
  );
}

/** The part of the page that changes from page to page. */
export function PageBody({ snapshot, plan, now, mode = "published", banner, origin = "", pagesOrigin = origin, apiOrigin = origin, pageUrl, content, longForm, icons }: PageProps) {
  const payTo = `${apiOrigin.replace(/\/+$/, "")}/api/pay`;
  const { profile } = snapshot;
  const v = content ?? visibleContentOf(snapshot, plan, now);
  const name = shownName(profile.displayName, profile.username);
  const base = `/${encodeURIComponent(profile.username)}`;
  const url = pageUrl ?? `${pagesOrigin}${base}`;
  const cardRefs = new Map<string, CardRef>();
  const dialogs: ReactNode[] = [];
  for (let i = 0; i < v.links.length; i++) {
    const l = v.links[i]!;
    if (l.linkType !== "vcf") continue;
    const ref = { dialog: `d-vcf-${dialogs.length}`, file: `${base}/${vcfFileName(l)}` };
    cardRefs.set(l.id, ref);
    dialogs.push(contactDialog(l, ref));
  }
  const items = (links: PageLink[]) => {
    const out: ReactNode[] = [];
    for (let i = 0; i < links.length; i++) out.push(linkItem(links[i]!, cardRefs.get(links[i]!.id), icons, payTo));
    return out;
  };
  const top = v.main ? [v.main, ...v.ungrouped] : v.ungrouped;
  const groups: ReactNode[] = [];
  for (let i = 0; i < v.groups.length; i++) {
    const g = v.groups[i]!;
    groups.push(
      <LinkGroup key={g.list.id} labelId={`g-${i}`} title={g.list.title}>
        {items(g.links)}
      </LinkGroup>,
    );
  }
  return (
    <PageLayout
      preview={mode === "preview" ? (banner ?? PAGE_TEXTS.previewBanner) : null}
      picture={pictureOf(snapshot, name)}
      name={name}
      bio={profile.bio.trim()}
      position={profile.socialLinksPosition}
      socials={socialsOf(v.socialLinks, profile.qrCodeVisible, profile.socialLinksPosition, icons)}
      top={top.length > 0 ? <LinkList>{items(top)}</LinkList> : null}
      groups={groups}
      longForm={v.longFormText ? longForm : undefined}
      branding={v.showBranding}
      home={`${origin}/`}
      url={url}
      shareTitle={v.seoTitle || name}
      qrSrc={`${base}/${qrFileName(url)}`}
      qrFile={`${profile.username}-qr.svg`}
      cards={dialogs}
    />
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

/**
 * The cookie banner (docs/product.md section 2; ADR 115, 147). First in the document, so a keyboard reaches its
 * choices within a few Tab presses, while it sits at the bottom of the screen; hidden until the head
 * script finds no stored choice.
 */
export function CookieBanner({ origin = "" }: { origin?: string }) {
  return (
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
  );
}

/** The part every page shares for one origin after its body: report and lead dialogs, toast. */
export function PageChrome() {
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
      <div id="toast" role="status" aria-live="polite" />
    </>
  );
}

/** The whole page body, for callers that render it in one go (the live preview). */
export function Page(props: PageProps) {
  return (
    <>
      <CookieBanner origin={props.origin ?? ""} />
      <PageBody {...props} />
      <PageChrome />
    </>
  );
}
