/**
 * History (ADR 137), opened from the publish bar and loaded when first opened: the published versions,
 * newest first, each with its time and what changed since the one before. Each can be previewed as it
 * was published (a new tab), restored into the draft, or put live at once; both ask first, in a
 * confirmation stacked above this dialog (ADR 124), and focus goes back to the button that asked.
 * Putting live a version with Plus items the owner's plan refuses lists, item by item, what visitors
 * will not see, and sends that consent, as "Hide Plus items and publish" does (ADR 136, 200).
 */
import { Eye, History as HistoryIcon, RotateCcw, Upload } from "lucide-react";
import { useEffect, useState } from "react";
import { DASH } from "#core/dashboard-texts.ts";
import { HISTORY_TEXTS } from "#core/history.ts";
import { dateAtTime } from "../../components/dates.ts";
import { api, ApiFailure, clientErrorMessage, unwrap } from "../api.ts";
import { Button } from "../components/button.tsx";
import { Confirm, Modal } from "../components/modal.tsx";
import { featureName, upgradeFor } from "../components/upgrade-prompt.tsx";
import { toast } from "../toast.tsx";
import { reloadSoon } from "./StatusBar.tsx";

type Version = Awaited<ReturnType<typeof loadVersions>>[number];
type Step = { kind: "restore" | "live"; version: number; hides: Version["planHides"] };

async function loadVersions() {
  return (await unwrap(api.publish.versions.$get())).versions;
}

const linkClass = "inline-flex min-h-10 items-center justify-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium hover:bg-slate-50";

export function HistoryDialog({ open, onClose, username }: { open: boolean; onClose(): void; username: string }) {
  const [versions, setVersions] = useState<Version[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [step, setStep] = useState<Step | null>(null);
  const [busy, setBusy] = useState(false);
  const hides = step?.kind === "live" ? step.hides : [];

  function load() {
    setFailed(false);
    setVersions(null);
    loadVersions().then(setVersions, () => setFailed(true));
  }
  // Read afresh each time the dialog opens: another tab may have published meanwhile.
  useEffect(() => {
    if (open) load();
  }, [open]);

  async function confirm() {
    if (!step) return;
    setBusy(true);
    try {
      if (step.kind === "restore") {
        const done = await unwrap(api.publish.restore.$post({ json: { version: step.version } }));
        setStep(null);
        void toast.success(done.message, { description: done.description }).then(reloadSoon);
      } else {
        // The consent: the features of the items the confirmation listed, once each.
        const hide = [...new Set(step.hides.map((h) => h.feature))];
        await unwrap(api.publish.rollback.$post({ json: hide.length ? { version: step.version, hide } : { version: step.version } }));
        setStep(null);
        void toast.success(DASH.published, { description: DASH.publishedText }).then(reloadSoon);
      }
    } catch (e) {
      const failedStep = step;
      setStep(null);
      if (e instanceof ApiFailure && failedStep.kind === "live" && (e.status === 402 || e.status === 409)) {
        // The plan hides more of this version than the confirmation listed (the plan or the time
        // changed since History was read): the list is read afresh, to be checked and confirmed again.
        const features: string[] = e.details.features ?? [];
        toast.error(HISTORY_TEXTS.putLiveFailed, {
          description: e.status === 409 ? e.message : `${HISTORY_TEXTS.consentOutdated} (${features.map(featureName).join(", ")})`,
          duration: 10_000,
          action: { label: DASH.upgrade, onClick: () => void upgradeFor(features[0] ?? "unlimited_links") },
        });
        // Read in place: the rows stay, and so does the focus on the button that asked.
        loadVersions().then(setVersions, () => undefined);
      } else {
        const title = failedStep.kind === "restore" ? HISTORY_TEXTS.restoreFailed : HISTORY_TEXTS.putLiveFailed;
        toast.error(title, { description: clientErrorMessage(e) ?? DASH.publishFailedText });
        load();
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Modal open={open} onOpenChange={(o) => !o && onClose()} title={HISTORY_TEXTS.title} description={HISTORY_TEXTS.description}>
        {failed ? (
          <div role="alert" className="text-sm text-red-700">
            <p>{HISTORY_TEXTS.loadFailed}</p>
            <Button variant="secondary" className="mt-2" onClick={load}>
              Try again
            </Button>
          </div>
        ) : versions === null ? (
          <p role="status" className="text-sm text-slate-600">
            Loading...
          </p>
        ) : versions.length === 0 ? (
          <p className="flex items-center gap-2 text-sm text-slate-600">
            <HistoryIcon aria-hidden className="size-4 shrink-0" /> {HISTORY_TEXTS.empty}
          </p>
        ) : (
          <ol className="space-y-3" aria-label="Published versions">
            {versions.map((v) => {
              const heading = `history-v${v.version}`;
              return (
                <li key={v.version} aria-labelledby={heading} className="rounded-lg border border-slate-200 p-3" data-testid="history-version">
                  <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
                    <h3 id={heading} className="font-semibold">
                      Version {v.version}
                    </h3>
                    {v.live ? <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900">{HISTORY_TEXTS.live}</span> : null}
                    <time dateTime={v.publishedAt} className="text-sm text-slate-600">
                      {dateAtTime(new Date(v.publishedAt))}
                    </time>
                  </div>
                  <p className="mt-1 text-sm text-slate-800">{v.summary}</p>
                  {v.hiddenByPlan.length ? <p className="mt-1 text-sm text-amber-900">{HISTORY_TEXTS.hiddenByPlan}</p> : null}
                  {!v.live && v.planHides.length ? <p className="mt-1 text-sm text-amber-900">{HISTORY_TEXTS.planHidesNote(v.planHides.length)}</p> : null}
                  <div className="mt-2 flex flex-wrap gap-2">
                    <a className={linkClass} href={`/${encodeURIComponent(username)}/preview?version=${v.version}`} target="_blank" rel="noopener" aria-label={`${HISTORY_TEXTS.preview}: version ${v.version} (opens in a new tab)`}>
                      <Eye aria-hidden className="size-4 shrink-0" /> {HISTORY_TEXTS.preview}
                    </a>
                    <Button variant="secondary" aria-label={`${HISTORY_TEXTS.restore}: version ${v.version}`} onClick={() => setStep({ kind: "restore", version: v.version, hides: [] })}>
                      <RotateCcw aria-hidden className="size-4 shrink-0" /> {HISTORY_TEXTS.restore}
                    </Button>
                    {v.live ? null : (
                      <Button variant="secondary" aria-label={`${HISTORY_TEXTS.putLive}: version ${v.version}`} onClick={() => setStep({ kind: "live", version: v.version, hides: v.planHides })}>
                        <Upload aria-hidden className="size-4 shrink-0" /> {HISTORY_TEXTS.putLive}
                      </Button>
                    )}
                  </div>
                </li>
              );
            })}
          </ol>
        )}
      </Modal>
      <Confirm
        open={step !== null}
        onOpenChange={(o) => !o && setStep(null)}
        title={step ? (step.kind === "restore" ? HISTORY_TEXTS.restoreTitle(step.version) : HISTORY_TEXTS.putLiveTitle(step.version)) : ""}
        description={step?.kind === "live" ? (hides.length ? HISTORY_TEXTS.putLiveHidesText : HISTORY_TEXTS.putLiveText) : HISTORY_TEXTS.restoreText}
        confirm={step?.kind === "live" ? (hides.length ? HISTORY_TEXTS.putLiveHidesConfirm : HISTORY_TEXTS.putLiveConfirm) : HISTORY_TEXTS.restoreConfirm}
        busy={busy}
        onConfirm={() => void confirm()}
      >
        {hides.length ? (
          <>
            <h3 id="history-hides" className="mt-3 text-sm font-semibold">
              {HISTORY_TEXTS.putLiveHidesList}
            </h3>
            <ul aria-labelledby="history-hides" tabIndex={0} className="mt-1 max-h-60 list-disc space-y-1 overflow-y-auto pl-5 text-sm text-slate-800">
              {hides.map((h, i) => (
                <li key={i}>{h.text}</li>
              ))}
            </ul>
          </>
        ) : null}
      </Confirm>
    </>
  );
}
