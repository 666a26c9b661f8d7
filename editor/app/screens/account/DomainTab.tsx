/**
 * Domain tab (issue 39, ADR 240, 243): the owner's custom domain. Adding one shows the two DNS
 * records to create, each with its state in the API's words; "Check now" looks them up at once; a
 * verified domain shows the page's new address. Removing asks first. Lite owners meet the Plus
 * prompt. Every refusal shows the server's own message. Loaded with the tab, on first use.
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { DOMAIN_MESSAGES, DOMAIN_SCREEN as T } from "#core/domains.ts";
import { TextField } from "../../../components/auth/fields.tsx";
import { api, ApiFailure, unwrap } from "../../api.ts";
import { Button } from "../../components/button.tsx";
import { Confirm } from "../../components/modal.tsx";
import { toast } from "../../toast.tsx";
import { isLite, useDashboard } from "../../store.ts";

type Loaded = Awaited<ReturnType<typeof loadDomain>>;
type Domain = NonNullable<Loaded["domain"]>;
const loadDomain = () => unwrap(api.domains.$get());
const failureText = (err: unknown) => (err instanceof ApiFailure ? err.message : String(err));

export default function DomainTab() {
  const me = useDashboard((s) => s.me);
  const openUpgrade = useDashboard((s) => s.openUpgrade);
  // The page's address the whole dashboard shows (me.pageAddress, ADR 244) follows the domain's state.
  const refreshAddress = () => void useDashboard.getState().loadMe().catch(() => undefined);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [failed, setFailed] = useState(false);
  const [typed, setTyped] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<"add" | "check" | "remove" | null>(null);
  const [confirming, setConfirming] = useState(false);
  const fieldBox = useRef<HTMLDivElement>(null);
  const fieldInput = () => fieldBox.current?.querySelector("input") ?? null;

  useEffect(() => {
    loadDomain().then((l) => {
      setLoaded(l);
      // Verified meanwhile by the background check: the address changed since the dashboard loaded.
      if (l.domain?.state === "verified") refreshAddress();
    }, () => setFailed(true));
  }, []);

  const show = (domain: Domain | null) => setLoaded((l) => (l ? { ...l, domain } : l));

  async function add(e: FormEvent) {
    e.preventDefault();
    setBusy("add");
    setFieldError(null);
    setError(null);
    try {
      const { domain } = await unwrap(api.domains.$post({ json: { domain: typed } }));
      setTyped("");
      show(domain);
    } catch (err) {
      if (err instanceof ApiFailure && err.status === 402) openUpgrade("custom_domain");
      // The field's own message when the server names the field, else the server's message under the form.
      if (err instanceof ApiFailure && err.fields.domain) setFieldError(err.fields.domain);
      else setError(failureText(err));
      fieldInput()?.focus();
    } finally {
      setBusy(null);
    }
  }

  async function check(domain: Domain) {
    setBusy("check");
    setError(null);
    try {
      const checked = (await unwrap(api.domains[":id"].check.$post({ param: { id: domain.id } }))).domain;
      show(checked);
      if (checked.state === "verified") refreshAddress();
    } catch (err) {
      setError(failureText(err));
    } finally {
      setBusy(null);
    }
  }

  async function remove(domain: Domain) {
    setBusy("remove");
    setError(null);
    try {
      await unwrap(api.domains[":id"].$delete({ param: { id: domain.id } }));
      setConfirming(false);
      show(null);
      refreshAddress();
      toast.success(T.removed);
    } catch (err) {
      setConfirming(false);
      setError(failureText(err));
    } finally {
      setBusy(null);
    }
  }

  if (failed) return <p role="alert" className="text-red-700">{T.loadFailed}</p>;
  if (!loaded) return <p className="text-slate-600">Loading...</p>;
  const domain = loaded.domain;
  const lite = isLite(me);

  return (
    <div className="max-w-2xl space-y-6">
      <section aria-labelledby="domain-title" className="space-y-3">
        <h2 id="domain-title" className="text-lg font-semibold">
          {T.title}
        </h2>
        <p className="text-sm text-slate-700">{T.intro}</p>
        {!loaded.available ? (
          <p className="rounded-md border border-slate-300 bg-slate-50 p-3 text-sm text-slate-800">{DOMAIN_MESSAGES.notSetUp}</p>
        ) : lite ? (
          <div className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
            <p className="font-semibold">{T.plusTitle}</p>
            <p className="mt-1">{T.plusText}</p>
            <Button className="mt-2" onClick={() => openUpgrade("custom_domain")}>
              {T.upgrade}
            </Button>
          </div>
        ) : null}
        {loaded.available && !domain ? (
          <form onSubmit={add} noValidate className="space-y-3">
            <div ref={fieldBox}>
            <TextField
              label={T.field}
              hint={T.hint}
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              error={fieldError}
              disabled={lite}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              inputMode="url"
            />
            </div>
            <Button type="submit" disabled={busy !== null || lite}>
              {busy === "add" ? T.adding : T.add}
            </Button>
          </form>
        ) : null}
        {error ? (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        ) : null}
      </section>

      {domain ? (
        <section aria-labelledby="domain-name" className="space-y-4 rounded-lg border border-slate-200 p-4">
          <div>
            <h3 id="domain-name" className="break-all text-base font-semibold">
              {domain.domain}
            </h3>
            <p role="status" className={`mt-1 text-sm ${domain.state === "verified" ? "font-semibold text-green-800" : "text-slate-700"}`}>
              {domain.status}
            </p>
          </div>
          {domain.state === "verified" ? (
            <p className="text-sm">
              {T.address}:{" "}
              <a href={domain.address} className="break-all font-medium text-brand-700 underline" target="_blank" rel="noreferrer">
                {`https://${domain.domain}/`}
              </a>
            </p>
          ) : (
            <div className="space-y-3">
              <h4 className="text-sm font-semibold">{T.recordsTitle}</h4>
              <p className="text-sm text-slate-700">{T.recordsIntro}</p>
              <ul aria-label={T.recordsTitle} className="space-y-3">
                {domain.records.map((r) => (
                  <li key={r.purpose} aria-label={`${r.type} record`} className="rounded-md border border-slate-200 p-3 text-sm">
                    <p className="font-medium">{r.purpose === "ownership" ? T.ownership : T.routing}</p>
                    <dl className="mt-2 grid grid-cols-[4.5rem_minmax(0,1fr)] gap-x-3 gap-y-1">
                      <dt className="text-slate-600">{T.type}</dt>
                      <dd className="font-mono">{r.type}</dd>
                      <dt className="text-slate-600">{T.name}</dt>
                      <dd className="break-all font-mono">{r.name}</dd>
                      <dt className="text-slate-600">{T.value}</dt>
                      <dd className="break-all font-mono">{r.value}</dd>
                      <dt className="text-slate-600">{T.state}</dt>
                      <dd className={r.state === "found" ? "font-semibold text-green-800" : r.state === "wrong" ? "font-semibold text-red-700" : "text-slate-800"}>
                        {r.status}
                        {r.state === "wrong" && r.seen.length ? <span className="block break-all font-normal text-slate-700">{`${T.seen} ${r.seen.join(", ")}`}</span> : null}
                      </dd>
                    </dl>
                    {"apexNote" in r && r.apexNote ? <p className="mt-2 text-slate-700">{r.apexNote}</p> : null}
                  </li>
                ))}
              </ul>
              {domain.lastCheckedAt ? <p className="text-sm text-slate-600">{`${T.lastChecked}: ${new Date(domain.lastCheckedAt).toLocaleString()}`}</p> : null}
              <Button variant="secondary" disabled={busy !== null} onClick={() => void check(domain)}>
                {busy === "check" ? T.checking : T.checkNow}
              </Button>
            </div>
          )}
          <Button variant="danger" disabled={busy !== null} onClick={() => setConfirming(true)}>
            {T.remove}
          </Button>
        </section>
      ) : null}

      {
        <Confirm
          open={confirming}
          onOpenChange={(o) => setConfirming(o)}
          title={T.removeTitle}
          description={T.removeText(domain?.domain ?? "")}
          cancel={T.cancel}
          confirm={T.removeConfirm}
          danger
          busy={busy === "remove"}
          onConfirm={() => domain && void remove(domain)}
          // The Remove button is gone once the domain is: focus goes to the field that adds one.
          focusOnClose={(opener) => (opener?.isConnected ? opener : fieldInput())}
        />
      }
    </div>
  );
}
