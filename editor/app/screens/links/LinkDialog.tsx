/**
 * Add New Link / Edit Link: the type's fields (docs/product.md section 5) and the Plus-only settings (thumbnail,
 * schedule, main button), checked with core's LinkInputSchema and LinkExtrasSchema as the server does.
 * An edit is based on the link as the dialog opened it; if another tab saved the link meanwhile, the
 * dialog says so and its Reload brings in what changed there, keeping the owner's other typing (ADR 069).
 */
import { useState, type ReactNode } from "react";
import { toast } from "../../toast.tsx";
import { DASH } from "#core/dashboard-texts.ts";
import { EDITOR_LINK_TYPES, LINK_TYPE_LABELS, LITE_LINK_TYPES, PROMOTE_LINK_TYPE, type LinkType } from "#core/link-types.ts";
import { recognizeEmbed } from "#core/embeds.ts";
import { getPlatform, SOCIAL_PLATFORMS } from "#core/platforms.ts";
import { cleanHandle } from "#core/social-handle.ts";
import { completeUrl, isMediaPath } from "#core/url-rule.ts";
import { ApiFailure, api, unwrap } from "../../api.ts";
import { useStaleWrite } from "../../components/StaleWrite.tsx";
import { PlusBadge } from "../../components/plus-badge.tsx";
import { Button } from "../../components/button.tsx";
import { Modal } from "../../components/modal.tsx";
import { mergeLatest } from "../../revisions.ts";
import { isLite, useDashboard } from "../../store.ts";
import { RadioCards } from "../appearance/RadioCards.tsx";
import { LinkFileField } from "./LinkFileField.tsx";
import { CoverField, readServices, ServicesField } from "./MusicFields.tsx";
import { PaidDownloadFields, paymentBody, paymentFieldsOf, TipFields } from "./PaymentFields.tsx";
import type { Link, LinkList, LinksData } from "./types.ts";
import { writeLink } from "./write-link.ts";
import { FieldError } from "../../../components/auth/fields.tsx";

type Fields = Record<string, string>;

/**
 * The URL fields, and whether each may hold an e-mail or phone link. What the owner typed is completed
 * as they leave the field and again on save (ADR 145), so the field shows what gets saved.
 */
const URL_FIELDS: Record<string, boolean> = { url: true, dataUrl: true, fileUrl: false, thumbnailUrl: false };
const completed = (f: Fields): Fields => {
  const out = { ...f };
  for (const [k, contact] of Object.entries(URL_FIELDS)) if (out[k]) out[k] = completeUrl(out[k]!, contact);
  // A Music link's addresses too (kept as JSON text while the dialog is open).
  if (out.services && out.services !== "[]") out.services = JSON.stringify(readServices(out.services).map((r) => ({ ...r, url: completeUrl(r.url, false) })));
  return out;
};

/** "E-mail me", "Call me", "Text me" (ADR 144): a button title and the start of its address. */
const CONTACT_STARTS = [
  { label: "E-mail me", prefix: "mailto:" },
  { label: "Call me", prefix: "tel:+" },
  { label: "Text me", prefix: "sms:+" },
] as const;

function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
const fromLocalInput = (v: string) => (v ? new Date(v).toISOString() : null);

function Field({ id, label, error, children, required }: { id: string; label: string; error?: string; required?: boolean; children: ReactNode }) {
  return (
    <div className="mb-3">
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
        {required ? <span aria-hidden className="text-red-600"> *</span> : null}
      </label>
      {children}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

const inputClass = "w-full rounded-md border border-slate-300 px-3 py-2 text-sm disabled:bg-slate-100";

/** The dialog's fields as they show a link (or a new one). */
function fieldsOf(link: Link | null): Fields {
  const d = (link?.linkSpecificData ?? {}) as Record<string, string>;
  return {
    title: link?.title ?? "",
    url: link && link.url !== "#" && link.linkType !== "text_link" && link.linkType !== PROMOTE_LINK_TYPE ? link.url : "",
    // A new link of a player's address is a player until the owner says otherwise; a saved one stays as it was saved.
    player: link ? (d.player === "on" ? "on" : "off") : "on",
    services: d.services ?? "[]",
    platform: d.platform ?? "",
    handle: d.handle ?? "",
    text: d.text ?? "",
    dataUrl: d.url ?? "",
    message: d.message ?? "",
    description: d.description ?? "",
    fileUrl: d.fileUrl ?? "",
    name: d.name ?? "",
    phone: d.phone ?? "",
    email: d.email ?? "",
    organization: d.organization ?? "",
    thumbnailUrl: link?.thumbnailUrl ?? "",
    start: toLocalInput(link?.scheduleStartTime),
    end: toLocalInput(link?.scheduleEndTime),
    parentListId: link?.parentListId ?? "",
    // A Tip's and a Paid download's settings, amounts in the currency's units (ADR 235).
    ...paymentFieldsOf(d),
  };
}
/** Everything the dialog edits, the fields and the type and main-button choices, for comparing versions. */
const editedOf = (link: Link | null, f: Fields = fieldsOf(link)) => ({ ...f, linkType: link?.linkType ?? "standard_url", isMainButton: String(link?.isMainButton ?? false) });

export function LinkDialog(props: { open: boolean; onOpenChange(o: boolean): void; link: Link | null; lists: LinkList[]; onSaved(): void; onReload(): Promise<LinksData> }) {
  const { open, onOpenChange, lists, onSaved } = props;
  const me = useDashboard((s) => s.me);
  const openUpgrade = useDashboard((s) => s.openUpgrade);
  const lite = isLite(me);
  /** The link as this dialog's edit is based on: as it opened, or as the last Reload brought it. */
  const [link, setLink] = useState<Link | null>(props.link);
  const [type, setType] = useState<LinkType>(link?.linkType ?? "standard_url");
  const [f, setF] = useState<Fields>(() => fieldsOf(link));
  const [main, setMain] = useState(link?.isMainButton ?? false);
  const [errors, setErrors] = useState<Fields>({});
  const [busy, setBusy] = useState(false);
  const set = (k: string) => (e: { target: { value: string } }) => setF((s) => ({ ...s, [k]: e.target.value }));
  const stale = useStaleWrite(async () => {
    const fresh = (await props.onReload()).links.find((l) => l.id === link?.id);
    if (!link || !fresh) {
      // Deleted in the other tab: nothing left to edit.
      onOpenChange(false);
      return null;
    }
    const { values, changed } = mergeLatest({ ...f, linkType: type, isMainButton: String(main) }, editedOf(link), editedOf(fresh));
    const { linkType, isMainButton, ...fields } = values;
    setF(fields);
    setType(linkType as LinkType);
    setMain(isMainButton === "true");
    setErrors({});
    setLink(fresh);
    const first = changed.find((k) => k !== "linkType" && k !== "isMainButton");
    return first ? document.getElementById(first === "parentListId" ? "link-list" : `link-${first}`) : null;
  });

  function body(f: Fields) {
    let data: Record<string, string> = {};
    if (type === "text_link") Object.assign(data, { text: f.text, url: f.dataUrl });
    if (type === "donation") data.message = f.message ?? "";
    if (type === "lead_magnet") Object.assign(data, { description: f.description, fileUrl: f.fileUrl });
    if (type === "vcf") Object.assign(data, { name: f.name, phone: f.phone, email: f.email, organization: f.organization });
    // A player only for an address a player can show; any other address saves as a plain link.
    if (type === "standard_url" && recognizeEmbed(f.url ?? "")) data.player = f.player === "on" ? "on" : "off";
    let url = type === "standard_url" || type === "donation" ? (f.url ?? "") : "";
    if (type === "music") {
      const rows = readServices(f.services ?? "");
      data.services = JSON.stringify(rows);
      url = rows[0]?.url ?? "";
    }
    if (type === "social") {
      const platform = getPlatform(f.platform ?? "");
      const handle = platform ? cleanHandle(platform, f.handle ?? "") : null;
      Object.assign(data, { platform: f.platform ?? "", handle: handle ?? f.handle ?? "" });
      url = platform && handle ? platform.baseUrl + handle : "";
    }
    if (type === "tip" || type === "paid_download") data = paymentBody(type, f).data;
    return {
      linkType: type,
      title: f.title ?? "",
      url,
      data,
      ...(lite ? {} : { thumbnailUrl: f.thumbnailUrl || null, scheduleStartTime: fromLocalInput(f.start ?? ""), scheduleEndTime: fromLocalInput(f.end ?? ""), isMainButton: main }),
      parentListId: f.parentListId || null,
    };
  }

  async function save(e: React.FormEvent) {
    e.preventDefault();
    if (type === PROMOTE_LINK_TYPE && !me?.plan.canSavePromoteLink) {
      openUpgrade(PROMOTE_LINK_TYPE);
      return;
    }
    // Completed first, in the fields too: the owner sees what is saved.
    const done = completed(f);
    setF(done);
    const b = body(done);
    // An amount that is not an amount is not sent as one: its field says so.
    const errs: Fields = type === "tip" || type === "paid_download" ? paymentBody(type, done).errors : {};
    if (type === "social") {
      // The field shows the handle as it is saved: "@name" or a pasted profile address cleaned as the social icons clean it.
      const platform = getPlatform(done.platform ?? "");
      const clean = platform ? cleanHandle(platform, done.handle ?? "") : null;
      if (clean !== null) setF((s) => ({ ...s, handle: clean }));
    }
    setBusy(true);
    const [{ LinkInputSchema }, { LinkExtrasSchema }] = await Promise.all([import("#core/link-input.ts"), import("#core/dashboard-schemas.ts")]);
    for (const check of [LinkInputSchema.safeParse(b), LinkExtrasSchema.safeParse(b)]) {
      if (!check.success) for (const issue of check.error.issues) errs[issue.path.join(".")] ??= issue.message;
    }
    setErrors(errs);
    if (Object.keys(errs).length) return setBusy(false);
    try {
      if (link) await writeLink(link, (revision) => unwrap(api.links[":id"].$patch({ param: { id: link.id }, json: { ...b, revision } })));
      else await unwrap(api.links.$post({ json: b }));
      toast.success(link ? DASH.linkUpdated : DASH.linkAdded);
      onOpenChange(false);
      onSaved();
    } catch (err) {
      if (stale.report(err)) {
        // The owner's typing stays; Reload brings in the other tab's changes.
      } else if (err instanceof ApiFailure && err.status === 402 && err.details.feature) {
        openUpgrade(err.details.feature);
      } else if (err instanceof ApiFailure && Object.keys(err.fields).length) {
        setErrors(err.fields);
      } else {
        toast.error("Error", { description: link ? DASH.linkUpdateFailed : DASH.linkAddFailed });
      }
    } finally {
      setBusy(false);
    }
  }

  // What the owner typed or chose since the dialog opened (or since Reload): Escape asks first then (ADR 140).
  const base: Record<string, string> = editedOf(link);
  const dirty = Object.entries({ ...f, linkType: type, isMainButton: String(main) }).some(([k, v]) => (base[k] ?? "") !== v);

  const err = (k: string) => errors[k];
  const input = (k: string, label: string, opts: { required?: boolean; type?: string; errKey?: string; placeholder?: string; disabled?: boolean; hint?: ReactNode; inputMode?: "decimal" } = {}) => {
    // An error, when there is one, is what the field is described by; else its hint.
    const describedBy = err(opts.errKey ?? k) ? `link-${k}-error` : opts.hint ? `link-${k}-hint` : "";
    return (
      <Field id={`link-${k}`} label={label} required={opts.required} error={err(opts.errKey ?? k)}>
        <input
          id={`link-${k}`}
          type={opts.type ?? "text"}
          value={f[k] ?? ""}
          onChange={set(k)}
          onBlur={k in URL_FIELDS ? (e) => setF((s) => ({ ...s, [k]: completeUrl(e.target.value, URL_FIELDS[k]) })) : undefined}
          placeholder={opts.placeholder}
          inputMode={opts.inputMode}
          disabled={opts.disabled}
          aria-invalid={err(opts.errKey ?? k) ? true : undefined}
          aria-describedby={describedBy || undefined}
          className={inputClass}
        />
        {opts.hint ? (
          <p id={`link-${k}-hint`} className="mt-1 text-xs text-slate-600">
            {opts.hint}
          </p>
        ) : null}
      </Field>
    );
  };
  /** Starts an e-mail, phone or text-message button: its address's scheme in the field, and a title if there is none (or another start's). */
  const startContact = (label: string, prefix: string) => {
    const untitled = (title = "") => !title.trim() || CONTACT_STARTS.some((c) => c.label === title);
    setF((s) => ({ ...s, title: untitled(s.title) ? label : s.title!, url: prefix }));
    requestAnimationFrame(() => {
      const el = document.getElementById("link-url") as HTMLInputElement | null;
      el?.focus();
      el?.setSelectionRange(prefix.length, prefix.length);
    });
  };
  const contactHint = "A web address, or an email address or phone number (with + and the country code).";
  /** The service a standard link's address is recognised as, which can show it as a player (ADR 215). */
  const embed = type === "standard_url" ? recognizeEmbed(completeUrl(f.url ?? "", true)) : null;
  const platform = type === "social" ? getPlatform(f.platform ?? "") : undefined;
  /** Picks a Social link's platform; a title left empty, or the last platform's name, becomes the new platform's name. */
  const choosePlatform = (id: string) =>
    setF((s) => {
      const before = getPlatform(s.platform ?? "")?.name;
      const untitled = !s.title?.trim() || s.title === before;
      return { ...s, platform: id, title: untitled ? (getPlatform(id)?.name ?? "") : s.title! };
    });
  const titleInput = input("title", type === "music" ? "Release title" : "Title", { required: type !== "social" });

  return (
    <Modal open={open} onOpenChange={onOpenChange} dirty={dirty} title={link ? "Edit Link" : "Add New Link"}>
      <form onSubmit={save} noValidate>
        {stale.alert}
        <RadioCards<LinkType>
          className="mb-4"
          legend="Link type"
          name="link-type"
          columns="grid-cols-2 sm:grid-cols-3"
          value={type}
          options={EDITOR_LINK_TYPES.map((t) => {
            const locked = lite && !LITE_LINK_TYPES.includes(t);
            return {
              value: t,
              label: LINK_TYPE_LABELS[t],
              locked,
              badge: locked || (t === PROMOTE_LINK_TYPE && !me?.plan.canSavePromoteLink) ? <PlusBadge feature={t} /> : undefined,
            };
          })}
          onChange={(t) => (lite && !LITE_LINK_TYPES.includes(t) ? openUpgrade(t) : setType(t))}
        />
        {type !== "social" ? titleInput : null}
        {type === "standard_url" ? (
          <>
            {input("url", "URL", { required: true, type: "url", placeholder: "https://", hint: contactHint })}
            <p role="status" className={embed ? "-mt-1 mb-2 text-sm font-medium text-emerald-800" : "sr-only"} data-testid="link-recognised">
              {embed ? `Recognised: ${embed.label}` : ""}
            </p>
            {embed ? (
              <div className="mb-3 flex items-start justify-between gap-3 rounded-md border border-slate-200 p-3">
                <div className="min-w-0">
                  <label htmlFor="link-player" className="block text-sm font-medium">
                    Show as a player
                  </label>
                  <p id="link-player-hint" className="mt-0.5 text-xs text-slate-600">
                    Your page shows a play button; {embed.label} loads only when a visitor presses it.
                  </p>
                </div>
                <button
                  id="link-player"
                  type="button"
                  role="switch"
                  aria-checked={f.player === "on"}
                  aria-describedby="link-player-hint"
                  data-state={f.player === "on" ? "checked" : "unchecked"}
                  onClick={() => setF((s) => ({ ...s, player: s.player === "on" ? "off" : "on" }))}
                  className="relative mt-0.5 h-6 w-11 shrink-0 rounded-full bg-slate-400 data-[state=checked]:bg-brand-600"
                >
                  <span
                    data-state={f.player === "on" ? "checked" : "unchecked"}
                    className="block size-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[22px]"
                  />
                </button>
              </div>
            ) : null}
            <div role="group" aria-label="Quick start" className="-mt-1 mb-3 flex flex-wrap gap-2">
              {CONTACT_STARTS.map((c) => (
                <button
                  key={c.label}
                  type="button"
                  onClick={() => startContact(c.label, c.prefix)}
                  className="min-h-9 rounded-full border border-slate-300 bg-white px-3 py-1 text-sm hover:bg-slate-50"
                >
                  {c.label}
                </button>
              ))}
            </div>
          </>
        ) : null}
        {type === "donation" ? input("url", "URL", { required: true, type: "url", placeholder: "https://" }) : null}
        {type === "text_link" ? (
          <>
            {input("dataUrl", "URL", { required: true, type: "url", errKey: "data.url", placeholder: "https://", hint: contactHint })}
            <Field id="link-text" label="Link Text" required error={err("data.text")}>
              <textarea id="link-text" value={f.text} onChange={set("text")} rows={3} className={inputClass} />
            </Field>
          </>
        ) : null}
        {type === "donation" ? (
          <Field id="link-message" label="Custom message (optional)" error={err("data.message")}>
            <textarea id="link-message" value={f.message} onChange={set("message")} rows={2} className={inputClass} />
          </Field>
        ) : null}
        {type === "lead_magnet" ? (
          <>
            <Field id="link-description" label="Description" required error={err("data.description")}>
              <textarea id="link-description" value={f.description} onChange={set("description")} rows={3} className={inputClass} />
            </Field>
            <LinkFileField
              kind="lead_magnet"
              value={f.fileUrl ?? ""}
              onChange={(url) => setF((s) => ({ ...s, fileUrl: url }))}
              urlInput={input("fileUrl", "File URL (optional)", { type: "url", errKey: "data.fileUrl", placeholder: "https://" })}
              uploadLabel="Or upload a file"
              onPlusRequired={openUpgrade}
            />
            {isMediaPath(f.fileUrl ?? "") && err("data.fileUrl") ? <p className="-mt-2 mb-3 text-sm text-red-700">{err("data.fileUrl")}</p> : null}
          </>
        ) : null}
        {type === "vcf" ? (
          <>
            {input("name", "Full Name", { required: true, errKey: "data.name" })}
            {input("phone", "Phone (optional)", { type: "tel", errKey: "data.phone" })}
            {input("email", "Email (optional)", { type: "email", errKey: "data.email" })}
            {input("organization", "Organization (optional)", { errKey: "data.organization" })}
          </>
        ) : null}
        {type === "music" ? (
          <>
            <CoverField value={f.thumbnailUrl ?? ""} onChange={(url) => setF((s) => ({ ...s, thumbnailUrl: url }))} error={err("thumbnailUrl")} onPlusRequired={openUpgrade} />
            <ServicesField value={readServices(f.services ?? "")} onChange={(rows) => setF((s) => ({ ...s, services: JSON.stringify(rows) }))} errors={errors} />
          </>
        ) : null}
        {type === "social" ? (
          <>
            <Field id="link-platform" label="Platform" required error={err("data.platform")}>
              <select
                id="link-platform"
                value={f.platform ?? ""}
                onChange={(e) => choosePlatform(e.target.value)}
                aria-invalid={err("data.platform") ? true : undefined}
                aria-describedby={err("data.platform") ? "link-platform-error" : undefined}
                className={inputClass}
              >
                <option value="">Choose a platform</option>
                {SOCIAL_PLATFORMS.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            </Field>
            {platform ? (
              <Field id="link-handle" label={platform.handleLabel} required error={err("data.handle") ?? err("url")}>
                <div className="flex rounded-md border border-slate-300">
                  <span className="flex max-w-[45%] items-center truncate rounded-l-md bg-slate-100 px-2 text-xs text-slate-700" aria-hidden>
                    {platform.baseUrl}
                  </span>
                  <input
                    id="link-handle"
                    value={f.handle ?? ""}
                    onChange={set("handle")}
                    // Cleaned as the owner leaves the field, as it is saved: "@name" or a pasted profile address becomes the handle.
                    onBlur={(e) => setF((s) => ({ ...s, handle: cleanHandle(platform, e.target.value) ?? e.target.value }))}
                    inputMode={platform.id === "whatsapp" ? "tel" : "text"}
                    aria-invalid={err("data.handle") ?? err("url") ? true : undefined}
                    aria-describedby={err("data.handle") ?? err("url") ? "link-handle-error" : undefined}
                    className="min-w-0 flex-1 rounded-r-md px-2 py-2 text-sm"
                  />
                </div>
              </Field>
            ) : null}
            {titleInput}
          </>
        ) : null}
        {type === "tip" || type === "paid_download" ? (
          (() => {
            const props = { f, setF, errors, input, field: (p: Parameters<typeof Field>[0]) => <Field {...p} />, inputClass };
            return type === "tip" ? (
              <TipFields {...props} />
            ) : (
              <PaidDownloadFields
                {...props}
                onPlusRequired={openUpgrade}
                cover={
                  <>
                    <LinkFileField
                      kind="thumbnail"
                      noun="cover"
                      value={f.cover ?? ""}
                      onChange={(url) => setF((s) => ({ ...s, cover: url }))}
                      urlInput={null}
                      uploadLabel="Cover image (optional)"
                      onPlusRequired={openUpgrade}
                    />
                    {err("data.cover") ? <p className="-mt-2 mb-3 text-sm text-red-700">{err("data.cover")}</p> : null}
                  </>
                }
              />
            );
          })()
        ) : null}
        {type === PROMOTE_LINK_TYPE ? <p className="mb-3 text-sm text-slate-600">This button links to your referral link, so you earn 20% on every referral.</p> : null}

        <details className="mb-3 rounded-md border border-slate-200 p-3" open={!!(link?.scheduleStartTime || link?.scheduleEndTime || (link?.thumbnailUrl && link.linkType !== "music"))}>
          <summary className="cursor-pointer text-sm font-medium">More options</summary>
          <div className="mt-3">
            {/* A release's cover is its thumbnail, chosen above. */}
            {type !== "music" ? (
              <>
                <div className="mb-1 flex items-center gap-2">{lite ? <PlusBadge feature="thumbnails" /> : null}</div>
                <LinkFileField
                  kind="thumbnail"
                  value={f.thumbnailUrl ?? ""}
                  onChange={(url) => setF((s) => ({ ...s, thumbnailUrl: url }))}
                  urlInput={input("thumbnailUrl", "Thumbnail image URL", { type: "url", disabled: lite, placeholder: "https://" })}
                  uploadLabel="Or upload a thumbnail"
                  disabled={lite}
                  onPlusRequired={openUpgrade}
                />
                {isMediaPath(f.thumbnailUrl ?? "") && err("thumbnailUrl") ? <p className="-mt-2 mb-3 text-sm text-red-700">{err("thumbnailUrl")}</p> : null}
              </>
            ) : null}
            <div className="mb-1 flex items-center gap-2">{lite ? <PlusBadge feature="scheduling" /> : null}</div>
            <div className="grid gap-2 sm:grid-cols-2">
              {input("start", "Schedule start", { type: "datetime-local", disabled: lite, errKey: "scheduleStartTime" })}
              {input("end", "Schedule end", { type: "datetime-local", disabled: lite, errKey: "scheduleEndTime" })}
            </div>
            <div className="flex items-center gap-2">
              <input id="link-main" type="checkbox" checked={main} disabled={lite} onChange={(e) => setMain(e.target.checked)} />
              <label htmlFor="link-main" className="text-sm">
                Make this the main button
              </label>
              {lite ? <PlusBadge feature="main_button" /> : null}
            </div>
          </div>
        </details>
        {lists.length ? (
          <Field id="link-list" label="List">
            <select id="link-list" value={f.parentListId} onChange={set("parentListId")} className={inputClass}>
              <option value="">No list</option>
              {lists.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.title}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        <div className="mt-4 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {link ? "Save Changes" : "Add Link"}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
