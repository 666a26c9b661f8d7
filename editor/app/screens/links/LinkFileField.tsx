/**
 * A link's file, given either as a URL or uploaded here (ADR 067): a lead magnet's download or a
 * link's thumbnail. The upload is checked in the browser for type and size first (the server checks
 * the bytes again) and the stored file's address becomes the field's value.
 */
import { useId, useState, type ReactNode } from "react";
import { toast } from "../../toast.tsx";
import { LINK_FILE_MESSAGES, linkFileError, type LinkFileKind } from "#core/link-files.ts";
import { isMediaPath } from "#core/url-rule.ts";
import { ApiFailure, api, unwrap } from "../../api.ts";

const ACCEPT: Record<LinkFileKind, string> = {
  lead_magnet: ".pdf,.epub,.zip,.mp3,application/pdf,application/epub+zip,application/zip,audio/mpeg,image/jpeg,image/png,image/gif,image/webp",
  thumbnail: "image/jpeg,image/png,image/gif,image/webp",
};

export function LinkFileField({
  kind,
  value,
  onChange,
  urlInput,
  uploadLabel,
  disabled,
  onPlusRequired,
  noun,
}: {
  kind: LinkFileKind;
  /** What the uploaded image is called when it is not a thumbnail (a Paid download's "cover"). */
  noun?: string;
  value: string;
  onChange(url: string): void;
  /** The URL field shown while no file is uploaded. */
  urlInput: ReactNode;
  uploadLabel: string;
  disabled?: boolean;
  onPlusRequired(feature: string): void;
}) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [name, setName] = useState<string | null>(null);

  async function upload(file: File | undefined) {
    if (!file) return;
    const known = linkFileError(kind, file);
    if (known) {
      toast.error(known.title, { description: known.text });
      return;
    }
    setBusy(true);
    try {
      const body = await unwrap(api.links.files.$post({ form: { file, kind } }));
      onChange(body.url);
      setName(file.name);
      toast.success(body.message);
    } catch (err) {
      if (err instanceof ApiFailure && err.status === 402 && err.details.feature) onPlusRequired(err.details.feature);
      else if (err instanceof ApiFailure && err.status >= 400 && err.status < 500) {
        toast.error(err.message, { description: typeof err.details.description === "string" ? err.details.description : undefined });
      } else toast.error(LINK_FILE_MESSAGES.uploadFailed, { description: "Please try again." });
    } finally {
      setBusy(false);
    }
  }

  if (isMediaPath(value)) {
    return (
      <div className="mb-3 rounded-md border border-slate-200 p-3 text-sm">
        <p className="font-medium">{kind === "lead_magnet" ? "Uploaded file" : `Uploaded ${noun ?? "thumbnail"}`}</p>
        <div className="mt-1 flex flex-wrap items-center gap-3">
          {kind === "thumbnail" ? <img src={value} alt="" width={32} height={32} className="rounded" /> : null}
          <a href={value} target="_blank" rel="noopener" className="text-brand-700 underline">
            {name ?? (kind === "lead_magnet" ? "View file" : `View ${noun ?? "thumbnail"}`)}
          </a>
          <button type="button" className="rounded-md border border-slate-300 px-2 py-1 hover:bg-slate-50" onClick={() => onChange("")} disabled={disabled}>
            {kind === "lead_magnet" ? "Remove file" : `Remove ${noun ?? "thumbnail"}`}
          </button>
        </div>
      </div>
    );
  }

  return (
    <>
      {urlInput}
      <div className="-mt-1 mb-3">
        <label htmlFor={id} className="mb-1 block text-sm font-medium">
          {uploadLabel}
        </label>
        <input
          id={id}
          type="file"
          accept={ACCEPT[kind]}
          disabled={disabled || busy}
          onChange={(e) => {
            void upload(e.target.files?.[0]);
            e.target.value = "";
          }}
          className="block w-full text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm hover:file:bg-slate-50 disabled:opacity-60"
        />
        <p className="mt-1 text-xs text-slate-600" aria-live="polite">
          {busy ? "Uploading…" : kind === "lead_magnet" ? "PDF, EPUB, ZIP, MP3 or an image, up to 10 MB" : "JPG, PNG, GIF or WEBP, up to 2 MB"}
        </p>
      </div>
    </>
  );
}
