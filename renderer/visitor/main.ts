/** The public page's visitor script: dialogs, share, report, lead capture, cookie banner, beacons. */
interface Config { username: string; apiOrigin: string; url: string; links: string[] }
const cfgEl = document.getElementById("plinth-config");
const cfg: Config = JSON.parse(cfgEl?.textContent || "{}");
const $ = <T extends Element>(s: string, r: ParentNode = document) => r.querySelector(s) as T | null;
const toast = (msg: string) => { const t = $("#toast"); if (t) { t.textContent = msg; setTimeout(() => { t.textContent = ""; }, 4000); } };
const beacon = (body: object) => { try { navigator.sendBeacon(`${cfg.apiOrigin}/api/visitor/track`, JSON.stringify({ ...body, username: cfg.username, referrer: document.referrer })); } catch { /* never break the page */ } };
const post = (path: string, body: object) => fetch(`${cfg.apiOrigin}/api/visitor/${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), credentials: "omit" });
const openDlg = (id: string) => ($<HTMLDialogElement>(`#${id}`))?.showModal();
let leadId = "";
async function copy() {
  try { await navigator.clipboard.writeText(cfg.url); toast("Link copied"); } catch { toast("Copy failed: Unable to copy the link. Please try again."); }
}

beacon({ type: "page_view" });
document.addEventListener("click", (e) => {
  const el = (e.target as Element).closest<HTMLElement>("[data-act],[data-link],[data-close],[data-ck]");
  if (!el) return;
  const act = el.dataset.act;
  if (el.dataset.link && act !== "lead") beacon({ type: "link_click", linkId: el.dataset.link });
  if (el.hasAttribute("data-close")) el.closest("dialog")?.close();
  if (act === "qr") openDlg("dlg-qr");
  if (act === "report") openDlg("dlg-report");
  if (act === "lead") {
    leadId = el.dataset.link || "";
    const d = $("#dlg-lead .desc"); if (d) d.textContent = el.dataset.desc || "";
    openDlg("dlg-lead");
  }
  if (act === "share") {
    if (navigator.share) navigator.share({ url: cfg.url }).catch(() => {});
    else void copy();
  }
  if (act === "cookies") showBanner(true);
  const ck = el.dataset.ck;
  if (ck === "customize") { const p = $<HTMLElement>("#ck-prefs"); if (p) p.hidden = false; }
  if (ck === "accept") consent(true, true);
  if (ck === "decline") consent(false, false);
  if (ck === "save") consent(!!$<HTMLInputElement>("#ck-prefs [name=analytics]")?.checked, !!$<HTMLInputElement>("#ck-prefs [name=marketing]")?.checked);
});

function showBanner(prefs: boolean) { const b = $<HTMLElement>("#cookie"); if (b) b.hidden = false; const p = $<HTMLElement>("#ck-prefs"); if (p && prefs) p.hidden = false; }
function consent(analytics: boolean, marketing: boolean) {
  try { localStorage.setItem("plinth-consent", JSON.stringify({ essential: true, analytics, marketing, timestamp: new Date().toISOString() })); } catch { /* private mode */ }
  const b = $<HTMLElement>("#cookie"); if (b) b.hidden = true;
}
try { if (!localStorage.getItem("plinth-consent")) showBanner(false); } catch { showBanner(false); }

function form(name: string, submit: (f: HTMLFormElement, err: HTMLElement) => Promise<void> | void) {
  const f = $<HTMLFormElement>(`form[data-form=${name}]`);
  f?.addEventListener("submit", (e) => { e.preventDefault(); const err = $<HTMLElement>(".err", f)!; err.textContent = ""; void submit(f, err); });
}
form("report", async (f, err) => {
  const reason = (f.elements.namedItem("reason") as HTMLSelectElement).value;
  if (!reason) { err.textContent = "Please select a reason"; return; }
  const details = (f.elements.namedItem("details") as HTMLTextAreaElement).value;
  try {
    const r = await post("report", { username: cfg.username, reason, details });
    if (!r.ok) throw new Error();
    f.closest("dialog")?.close(); f.reset(); toast("Report submitted");
  } catch { err.textContent = "Report failed: Unable to submit your report. Please try again."; }
});
form("lead", async (f, err) => {
  const email = (f.elements.namedItem("email") as HTMLInputElement).value.trim();
  if (!email) { err.textContent = "Please enter your email address"; return; }
  try {
    const r = await post("lead", { linkId: leadId, email });
    if (!r.ok) throw new Error();
    f.closest("dialog")?.close(); f.reset(); toast("Check your email for the download link");
  } catch { err.textContent = "Failed to send download link. Please try again."; }
});
export {};
