/**
 * The public page's visitor script (no framework; budget 5 KB gzip): dialogs (QR code, contact card, share,
 * lead magnet, report), share, the cookie banner, and cookie-less analytics beacons. Every call to
 * the API may fail without breaking the page: links keep their real href.
 * Texts shown here are docs/product.md's (section 8, Public page).
 */
import { CONSENT_KEY } from "./consent-key.ts";

interface Config {
  username: string;
  apiOrigin: string;
  url: string;
  title: string;
  preview: boolean;
}

const root = document.documentElement;
const $ = <T extends Element = HTMLElement>(sel: string, from: ParentNode = document) => from.querySelector(sel) as T | null;
let cfg: Config;
try {
  cfg = JSON.parse($("#plinth-config")?.textContent || "");
} catch {
  cfg = { username: "", apiOrigin: "", url: location.href, title: document.title, preview: true };
}

/** A message in `el`: its title in bold, then an optional description; "" empties it. */
function say(el: Element | null, title: string, description = ""): void {
  if (!el) return;
  el.textContent = "";
  if (!title) return;
  const b = document.createElement("b");
  b.textContent = title;
  el.append(b, description);
}

// Toasts: one at a time (docs/product.md section 9), a title and an optional description.
let toastTimer = 0;
function toast(title: string, description = ""): void {
  const t = $("#toast");
  if (!t) return;
  say(t, title, description);
  clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => (t.textContent = ""), 5000);
}

function beacon(body: Record<string, string>): void {
  if (cfg.preview || !cfg.apiOrigin) return;
  try {
    // text/plain keeps it a simple request: no preflight, no cookies.
    navigator.sendBeacon(`${cfg.apiOrigin}/api/visitor/track`, JSON.stringify({ ...body, username: cfg.username, referrer: document.referrer, url: location.href }));
  } catch {
    // Analytics never break the page.
  }
}

async function post(path: string, body: object): Promise<Response> {
  return fetch(`${cfg.apiOrigin}/api/visitor/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    credentials: "omit",
  });
}

/** The server's reason a visitor can act on: a refused address (400), or a limit reached (429). */
async function errorMessage(res: Response): Promise<string | undefined> {
  if (res.status !== 400 && res.status !== 429) return undefined;
  try {
    const body = await res.json();
    return res.status === 400 ? body?.error?.fields?.email : body?.error?.message;
  } catch {
    return undefined;
  }
}

function open(dialog: HTMLDialogElement | null): void {
  if (dialog && !dialog.open) dialog.showModal();
}

// Share: the device's share sheet, else the share dialog (else, on a page without one, copy the address).
async function copy(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "sr";
    document.body.append(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    if (!ok) throw new Error("copy");
  }
}

/** Copies the page's address and tells how it went through `show` ("Link copied" with `detail`). */
async function copyLink(show: (title: string, description?: string) => void, detail: string): Promise<void> {
  try {
    await copy(cfg.url);
    show("Link copied", detail);
  } catch {
    show("Copy failed", "Unable to copy the link. Please try again.");
  }
}

const shareDialog = $<HTMLDialogElement>("#d-share");

async function share(): Promise<void> {
  if (navigator.share) {
    try {
      await navigator.share({ title: cfg.title, url: cfg.url });
      return;
    } catch (err) {
      // Closing the share sheet is not a failure.
      if ((err as Error).name === "AbortError") return;
    }
  }
  if (!shareDialog) return copyLink(toast, cfg.url);
  say($(".cpd", shareDialog), "");
  open(shareDialog);
}

// Cookie banner (docs/product.md section 4): shown until a choice is stored; reopened from the footer.
interface Consent {
  essential: true;
  analytics: boolean;
  marketing: boolean;
  timestamp: string;
}
const banner = $("#ck");
const prefs = $<HTMLFieldSetElement>("#ck-p");
const box = (name: string) => $<HTMLInputElement>(`#ck-p [name=${name}]`);
function storedConsent(): Consent | null {
  try {
    return JSON.parse(localStorage.getItem(CONSENT_KEY) || "null");
  } catch {
    return null;
  }
}
function showPrefs(show: boolean): void {
  const customize = $("[data-ck=customize]");
  if (prefs) prefs.hidden = !show;
  customize?.setAttribute("aria-expanded", String(show));
  // Open, the panel has its own Save: the Customize button under it would only confuse.
  if (customize) customize.hidden = show;
}
// Where focus was before it went into the banner: a choice (or Escape) gives it back there, else to
// the page's main content, never to the top of the document.
let beforeBanner: HTMLElement | null = null;
banner?.addEventListener("focusin", (e) => {
  const from = e.relatedTarget;
  if (from instanceof HTMLElement && !banner.contains(from)) beforeBanner = from;
});
function closeBanner(): void {
  const hadFocus = !!banner?.contains(document.activeElement);
  root.classList.remove("ck-open");
  showPrefs(false);
  if (hadFocus) (beforeBanner?.isConnected ? beforeBanner : $("main"))?.focus();
  beforeBanner = null;
}
function saveConsent(analytics: boolean, marketing: boolean): void {
  const consent: Consent = { essential: true, analytics, marketing, timestamp: new Date().toISOString() };
  try {
    localStorage.setItem(CONSENT_KEY, JSON.stringify(consent));
  } catch {
    // Private browsing without storage: the choice lasts for this visit.
  }
  closeBanner();
}
// Reopened settings close with Escape, keeping the stored choice; a first visit needs a choice.
banner?.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && storedConsent()) closeBanner();
});
function openCookieSettings(): void {
  const c = storedConsent();
  const a = box("analytics");
  const m = box("marketing");
  if (a) a.checked = !!c?.analytics;
  if (m) m.checked = !!c?.marketing;
  root.classList.add("ck-open");
  showPrefs(true);
  (a ?? banner)?.focus();
}

// The banner must never hide the end of the page (the footer's own controls), the control that
// has the focus, nor the floating social icons: room is kept below, the page scrolls focused
// elements above the banner, and the icons rise above it while it is open (--ck-room).
if (banner && "ResizeObserver" in window) {
  new ResizeObserver(() => {
    const room = banner.offsetHeight ? `${banner.offsetHeight + 24}px` : "";
    document.body.style.paddingBottom = room;
    root.style.scrollPaddingBottom = room;
    if (banner.offsetHeight) root.style.setProperty("--ck-room", `${banner.offsetHeight + 8}px`);
    else root.style.removeProperty("--ck-room");
  }).observe(banner);
}

// Forms in dialogs: docs/product.md's messages, shown in the dialog (role=alert).
function showError(form: HTMLFormElement, title: string, description = ""): void {
  say($(".err", form), title, description);
}

let leadLink = "";
const leadDialog = $<HTMLDialogElement>("#d-lead");
/**
 * The lead dialog, opened for a link: its form again, without the last message or download. The
 * e-mail the visitor typed stays, as the report dialog's typing does (a closed dialog keeps its form).
 */
function resetLead(): void {
  const form = $<HTMLFormElement>("form", leadDialog!);
  const done = $(".done", leadDialog!);
  const download = $<HTMLAnchorElement>(".done a", leadDialog!);
  if (form) {
    form.hidden = false;
    showError(form, "");
  }
  if (done) done.hidden = true;
  if (download) download.hidden = true;
}

// Players (ADR 212): each facade is a link to the address; here it becomes a play button, and a
// press swaps in the service's embed. Nothing is asked of the service before the press.
for (const a of document.querySelectorAll<HTMLAnchorElement>("a[data-embed]")) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = a.className;
  b.dataset.act = "play";
  b.dataset.link = a.dataset.link;
  b.dataset.embed = a.dataset.embed;
  b.setAttribute("aria-label", `Play ${a.textContent}`);
  b.append(...a.childNodes);
  a.replaceWith(b);
}
function play(b: HTMLElement): void {
  const f = document.createElement("iframe");
  f.className = `emb ${b.classList[1]}`;
  f.src = b.dataset.embed!;
  f.title = b.textContent || "Player";
  f.loading = "lazy";
  f.allow = "autoplay; encrypted-media; fullscreen; picture-in-picture";
  f.allowFullscreen = true;
  b.replaceWith(f);
  f.focus();
}

document.addEventListener("click", (e) => {
  const target = e.target as Element;
  // A click on a dialog's backdrop closes it.
  if (target instanceof HTMLDialogElement && target.open) {
    const r = target.getBoundingClientRect();
    const ev = e as MouseEvent;
    if (ev.clientX < r.left || ev.clientX > r.right || ev.clientY < r.top || ev.clientY > r.bottom) target.close();
    return;
  }
  const el = target.closest<HTMLElement>("[data-act],[data-link],[data-close],[data-ck]");
  if (!el) return;
  const { act, link, ck } = el.dataset;
  if (link) beacon({ type: "link_click", linkId: link });
  if (el.hasAttribute("data-close")) el.closest("dialog")?.close();
  if (act === "qr") open($<HTMLDialogElement>("#d-qr"));
  if (act === "play") play(el);
  if (act === "vcf" && el.dataset.dlg) {
    e.preventDefault();
    open($<HTMLDialogElement>(`#${el.dataset.dlg}`));
  }
  if (act === "report") open($<HTMLDialogElement>("#d-report"));
  if (act === "lead" && leadDialog) {
    leadLink = link || "";
    resetLead();
    const title = $("#d-lead-t", leadDialog);
    const desc = $(".desc", leadDialog);
    if (title) title.textContent = el.dataset.title || title.textContent;
    if (desc) desc.textContent = el.dataset.desc || "";
    open(leadDialog);
  }
  if (act === "share") void share();
  if (act === "copy" && shareDialog) void copyLink((title, description) => say($(".cpd", shareDialog), title, description), "");
  if (act === "cookies") openCookieSettings();
  if (ck === "customize") {
    showPrefs(true);
    box("analytics")?.focus();
  }
  if (ck === "accept") saveConsent(true, true);
  if (ck === "decline") saveConsent(false, false);
  if (ck === "save") saveConsent(!!box("analytics")?.checked, !!box("marketing")?.checked);
});

function onSubmit(name: string, handler: (form: HTMLFormElement, submit: HTMLButtonElement) => Promise<void>): void {
  const form = $<HTMLFormElement>(`form[data-form=${name}]`);
  form?.addEventListener("submit", async (e) => {
    e.preventDefault();
    const submit = $<HTMLButtonElement>("[type=submit]", form)!;
    showError(form, "");
    submit.disabled = true;
    try {
      await handler(form, submit);
    } finally {
      submit.disabled = false;
    }
  });
}

onSubmit("report", async (form) => {
  const reason = (form.elements.namedItem("reason") as HTMLSelectElement).value;
  if (!reason) return showError(form, "Please select a reason");
  const details = (form.elements.namedItem("details") as HTMLTextAreaElement).value.trim();
  try {
    const res = await post("report", { username: cfg.username, reason, details });
    if (!res.ok) throw new Error(String(res.status));
    form.reset();
    form.closest("dialog")?.close();
    toast("Report submitted", "Thank you. We will review this page.");
  } catch {
    showError(form, "Report failed", "Unable to submit your report. Please try again.");
  }
});

onSubmit("lead", async (form) => {
  const email = (form.elements.namedItem("email") as HTMLInputElement).value.trim();
  if (!email) return showError(form, "Please enter your email address");
  try {
    const res = await post("lead", { linkId: leadLink, email });
    if (!res.ok) {
      // A refused address or a limit reached gets the server's reason; anything else docs/product.md's failure text.
      showError(form, (await errorMessage(res)) || "Failed to send download link. Please try again.");
      return;
    }
    const { downloadUrl } = (await res.json()) as { downloadUrl?: string };
    const done = $(".done", leadDialog!);
    const sent = $(".sent", leadDialog!);
    const download = $<HTMLAnchorElement>(".done a", leadDialog!);
    if (sent) sent.textContent = `We sent the download link to ${email}.`;
    if (download && downloadUrl && /^https?:\/\//i.test(downloadUrl)) {
      download.href = downloadUrl;
      download.hidden = false;
    }
    form.hidden = true;
    if (done) done.hidden = false;
    $<HTMLElement>(".done button", leadDialog!)?.focus();
  } catch {
    showError(form, "Failed to send download link. Please try again.");
  }
});

beacon({ type: "page_view" });
