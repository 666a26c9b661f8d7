/**
 * A Music link's own fields (ADR 215): the release's cover, chosen and cropped as the profile picture is
 * (the same checks and crop dialog, a square 400 px JPEG) and stored through the link files' upload;
 * and the release's addresses, one per service, in the owner's order: a service is added from those not
 * yet used, removed, or moved up and down with buttons that keep the focus on the moved row.
 */
import { ArrowDown, ArrowUp, ImagePlus, Plus, Trash2 } from "lucide-react";
import { lazy, Suspense, useId, useRef, useState } from "react";
import type { Area } from "react-easy-crop";
import { toast } from "../../toast.tsx";
import { LINK_FILE_MESSAGES } from "#core/link-files.ts";
import { MUSIC_SERVICES, type MusicServiceId } from "#core/music.ts";
import { completeUrl } from "#core/url-rule.ts";
import { ApiFailure, api, unwrap } from "../../api.ts";
import { Button } from "../../components/button.tsx";
import { moveItem } from "../../components/sortable.tsx";
import { FieldError } from "../../../components/auth/fields.tsx";
import { usePickedPicture } from "../profile/picked-picture.ts";

// The cropper loads when the owner first picks a cover, as on the Profile Picture screen.
const CropDialog = lazy(() => import("../profile/CropDialog.tsx").then((m) => ({ default: m.CropDialog })));

export interface ServiceRow {
  service: MusicServiceId;
  url: string;
}

const inputClass = "w-full rounded-md border border-slate-300 px-3 py-2 text-sm";
const serviceOf = (id: string) => MUSIC_SERVICES.find((s) => s.id === id);

/** The services as the dialog keeps them (a JSON string in its fields), read back; anything unreadable is none. */
export function readServices(text: string): ServiceRow[] {
  try {
    const v: unknown = JSON.parse(text || "[]");
    return Array.isArray(v) ? v.filter((r): r is ServiceRow => !!r && typeof r.service === "string" && typeof r.url === "string") : [];
  } catch {
    return [];
  }
}

export function CoverField({ value, onChange, error, onPlusRequired }: { value: string; onChange(url: string): void; error?: string; onPlusRequired(feature: string): void }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const { src, wanted, close, pick, unreadable } = usePickedPicture(input);
  const [busy, setBusy] = useState(false);

  async function upload(area: Area) {
    if (!src) return;
    setBusy(true);
    try {
      const { cropToJpeg } = await import("../profile/crop-image.ts");
      const blob = await cropToJpeg(src, area, "icon", "square");
      const body = await unwrap(api.links.files.$post({ form: { file: new File([blob], "cover.jpg", { type: "image/jpeg" }), kind: "thumbnail" } }));
      onChange(body.url);
      close();
      toast.success(MUSIC_TEXTS.coverUploaded);
    } catch (err) {
      if (err instanceof ApiFailure && err.status === 402 && err.details.feature) {
        close();
        onPlusRequired(err.details.feature);
      } else if (err instanceof ApiFailure && err.status >= 400 && err.status < 500) {
        toast.error(err.message, { description: typeof err.details.description === "string" ? err.details.description : undefined });
      } else toast.error(LINK_FILE_MESSAGES.uploadFailed, { description: "Please try again." });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="mb-3">
      <p id={`${id}-label`} className="mb-1 text-sm font-medium">
        Cover picture
      </p>
      <div className="flex flex-wrap items-center gap-3">
        {value ? <img src={value} alt="The release's cover" width={64} height={64} className="size-16 rounded object-cover" data-testid="music-cover" /> : null}
        <input
          ref={input}
          id={`${id}-file`}
          type="file"
          accept="image/jpeg,image/png,image/gif,image/webp"
          className="peer sr-only"
          aria-describedby={error ? `${id}-error` : `${id}-hint`}
          aria-invalid={error ? true : undefined}
          onChange={(e) => void pick(e.target.files?.[0])}
        />
        <label
          htmlFor={`${id}-file`}
          className="inline-flex min-h-10 cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium hover:bg-slate-50 peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600"
        >
          <ImagePlus aria-hidden className="size-4" /> {value ? "Change cover" : "Choose cover"}
        </label>
        {value ? (
          <Button variant="secondary" onClick={() => onChange("")}>
            Remove cover
          </Button>
        ) : null}
      </div>
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          JPG, PNG, GIF or WebP; you crop it to a square next.
        </p>
      )}
      {wanted ? (
        <Suspense fallback={null}>
          <CropDialog
            src={src}
            shape="icon"
            fullwidthHeight="square"
            square
            title="Crop the Cover"
            busy={busy}
            onCancel={close}
            onSave={(area) => void upload(area)}
            onUnreadable={unreadable}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

/** The editor's own words for the Music fields (no product text names them). */
export const MUSIC_TEXTS = {
  coverUploaded: "Cover uploaded",
} as const;

export function ServicesField({ value, onChange, errors }: { value: ServiceRow[]; onChange(rows: ServiceRow[]): void; errors: Record<string, string> }) {
  const id = useId();
  const list = useRef<HTMLOListElement>(null);
  const unused = MUSIC_SERVICES.filter((s) => !value.some((r) => r.service === s.id));
  const [adding, setAdding] = useState<string>("");
  const chosen = unused.some((s) => s.id === adding) ? adding : (unused[0]?.id ?? "");
  const listError = errors["data.services"] ?? errors.url;

  /** After the list renders again, focus the control `name` of the row of `service` (or, if that one is disabled, `fallback`). */
  const focusLater = (service: string, name: string, fallback?: string) =>
    requestAnimationFrame(() => {
      const row = list.current?.querySelector<HTMLElement>(`[data-service="${CSS.escape(service)}"]`);
      const el = row?.querySelector<HTMLButtonElement | HTMLInputElement>(`[data-control="${name}"]`);
      const target = el && !el.disabled ? el : row?.querySelector<HTMLElement>(`[data-control="${fallback}"]`);
      target?.focus();
    });

  function add() {
    if (!chosen) return;
    onChange([...value, { service: chosen as MusicServiceId, url: "" }]);
    focusLater(chosen, "url");
  }
  function move(i: number, delta: number) {
    const to = i + delta;
    if (to < 0 || to >= value.length) return;
    const service = value[i]!.service;
    onChange(moveItem(value, i, to));
    const name = delta < 0 ? "up" : "down";
    focusLater(service, name, delta < 0 ? "down" : "up");
  }
  function remove(i: number) {
    const next = value.filter((_, k) => k !== i);
    onChange(next);
    const neighbour = next[i] ?? next[i - 1];
    requestAnimationFrame(() => {
      if (neighbour) list.current?.querySelector<HTMLElement>(`[data-service="${CSS.escape(neighbour.service)}"] [data-control="remove"]`)?.focus();
      else document.getElementById(`${id}-add`)?.focus();
    });
  }

  return (
    <fieldset className="mb-3 min-w-0" aria-describedby={listError ? `${id}-error` : `${id}-hint`}>
      <legend className="mb-1 text-sm font-medium">
        Services<span aria-hidden className="text-red-600"> *</span>
      </legend>
      <p id={`${id}-hint`} className="mb-2 text-xs text-slate-600">
        The release's address on each service, in the order your page shows them (1 to {MUSIC_SERVICES.length}).
      </p>
      {value.length ? (
        <ol ref={list} className="mb-2 space-y-2" aria-label="Your services">
          {value.map((r, i) => {
            const label = serviceOf(r.service)?.label ?? r.service;
            const rowError = errors[`data.services.${i}.url`] ?? errors[`data.services.${i}`];
            return (
              <li key={r.service} data-service={r.service} data-testid="music-service-row" className="rounded-md border border-slate-200 p-2">
                <div className="flex flex-wrap items-end gap-2">
                  <div className="min-w-0 flex-1 basis-40">
                    <label htmlFor={`${id}-${r.service}`} className="mb-1 block text-sm font-medium">
                      {label} address
                    </label>
                    <input
                      id={`${id}-${r.service}`}
                      data-control="url"
                      type="url"
                      value={r.url}
                      placeholder={serviceOf(r.service)?.example ?? "https://"}
                      onChange={(e) => onChange(value.map((x, k) => (k === i ? { ...x, url: e.target.value } : x)))}
                      onBlur={(e) => onChange(value.map((x, k) => (k === i ? { ...x, url: completeUrl(e.target.value, false) } : x)))}
                      aria-invalid={rowError ? true : undefined}
                      aria-describedby={rowError ? `${id}-${r.service}-error` : undefined}
                      className={inputClass}
                    />
                  </div>
                  <div className="flex gap-1">
                    <Button variant="ghost" className="disabled:opacity-40" data-control="up" aria-label={`Move ${label} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                      <ArrowUp aria-hidden className="size-4" />
                    </Button>
                    <Button variant="ghost" className="disabled:opacity-40" data-control="down" aria-label={`Move ${label} down`} disabled={i === value.length - 1} onClick={() => move(i, 1)}>
                      <ArrowDown aria-hidden className="size-4" />
                    </Button>
                    <Button variant="ghost" data-control="remove" aria-label={`Remove ${label}`} onClick={() => remove(i)}>
                      <Trash2 aria-hidden className="size-4" />
                    </Button>
                  </div>
                </div>
                <FieldError id={`${id}-${r.service}-error`} message={rowError} />
              </li>
            );
          })}
        </ol>
      ) : null}
      {unused.length ? (
        <div className="flex flex-wrap items-end gap-2">
          <div className="min-w-0 flex-1 basis-40">
            <label htmlFor={`${id}-add`} className="mb-1 block text-sm font-medium">
              Add a service
            </label>
            <select id={`${id}-add`} value={chosen} onChange={(e) => setAdding(e.target.value)} className={inputClass}>
              {unused.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label}
                </option>
              ))}
            </select>
          </div>
          <Button variant="secondary" onClick={add}>
            <Plus aria-hidden className="size-4" /> Add service
          </Button>
        </div>
      ) : null}
      <FieldError id={`${id}-error`} message={listError} />
    </fieldset>
  );
}
