import { useEffect, useState } from "react";
import { LIMITS } from "#core/limits.ts";
import { usernameFormatError } from "#core/username-format.ts";

interface Props {
  buttonLabel: string;
  initialValue?: string;
  id?: string;
  /** What claiming does; by default it goes to /auth/signup?username=…. */
  onClaim?: (name: string) => void;
  /** A refusal from a later step (the name was taken meanwhile), shown until the name changes. */
  error?: string | null;
  busy?: boolean;
}

type State =
  | { kind: "idle" }
  | { kind: "checking" }
  | { kind: "available"; name: string }
  | { kind: "unavailable"; message: string };

/** The username claim box: {host}/ prefix, live availability check, claim goes to signup. */
export default function UsernameClaim({ buttonLabel, initialValue = "", id = "claim-username", onClaim, error = null, busy = false }: Props) {
  const [value, setValue] = useState(initialValue);
  const [shownError, setShownError] = useState(error);
  useEffect(() => setShownError(error), [error]);
  const [state, setState] = useState<State>({ kind: "idle" });
  const [host, setHost] = useState("");
  const name = value.trim();

  useEffect(() => setHost(window.location.host), []);

  useEffect(() => {
    if (shownError) return setState({ kind: "unavailable", message: shownError });
    if (name.length === 0) return setState({ kind: "idle" });
    const formatError = usernameFormatError(name);
    if (formatError) return setState({ kind: "unavailable", message: formatError });
    setState({ kind: "checking" });
    const ctrl = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const res = await fetch(`/api/auth/username-availability?username=${encodeURIComponent(name)}`, { signal: ctrl.signal });
        if (!res.ok) throw new Error("check failed");
        const body = (await res.json()) as { available?: boolean; message?: string };
        setState(body.available ? { kind: "available", name } : { kind: "unavailable", message: body.message ?? "Username is already taken" });
      } catch {
        if (!ctrl.signal.aborted) setState({ kind: "unavailable", message: "Error checking availability" });
      }
    }, LIMITS.USERNAME_CHECK_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [name, shownError]);

  const ok = state.kind === "available" && state.name === name;
  const msgId = `${id}-status`;
  return (
    <form
      className="w-full max-w-lg"
      onSubmit={(e) => {
        e.preventDefault();
        if (!ok || busy) return;
        if (onClaim) onClaim(name);
        else window.location.assign(`/auth/signup?username=${encodeURIComponent(name)}`);
      }}
    >
      <label htmlFor={id} className="sr-only">Username</label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <div className="flex flex-1 items-center rounded-md border border-slate-400 bg-white px-3 focus-within:outline focus-within:outline-3 focus-within:outline-brand-600">
          <span className="text-slate-700">{host}/</span>
          <input
            id={id}
            value={value}
            onChange={(e) => {
              setShownError(null);
              setValue(e.target.value);
            }}
            placeholder="yourname"
            autoComplete="off"
            spellCheck={false}
            aria-describedby={msgId}
            aria-invalid={state.kind === "unavailable"}
            className="min-w-0 flex-1 bg-transparent py-2 outline-none"
          />
        </div>
        <button type="submit" disabled={!ok || busy} className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white disabled:opacity-60">
          {buttonLabel}
        </button>
      </div>
      <p id={msgId} aria-live="polite" className="mt-2 min-h-6 text-sm">
        {state.kind === "checking" && <span className="text-slate-700"><span aria-hidden="true" className="mr-1 inline-block animate-spin">◌</span>Checking…</span>}
        {state.kind === "available" && <span className="text-green-800"><span aria-hidden="true">✓ </span>@{state.name} is available</span>}
        {state.kind === "unavailable" && <span className="text-red-700"><span aria-hidden="true">✗ </span>{state.message}</span>}
      </p>
    </form>
  );
}
