/**
 * /auth/callback: where Google sends the browser back. Hands the provider's answer to the API, then
 * goes on: into the dashboard, to the two-factor step, or to the signup wizard for a new user.
 */
import { useEffect, useState } from "react";
import { AUTH_TEXT } from "#core/schemas/auth.ts";
import { auth, call, failureMessage } from "./api.ts";
import { Alert } from "./fields.tsx";
import TwoFactorStep from "./TwoFactorStep.tsx";
import ErrorBoundary from "../ErrorBoundary.tsx";

function Callback() {
  const [state, setState] = useState<{ kind: "working" } | { kind: "two_factor"; next: string } | { kind: "signed_in" } | { kind: "error"; message: string }>({ kind: "working" });

  useEffect(() => {
    const query = window.location.search;
    // The one-time code leaves the address bar at once.
    window.history.replaceState(null, "", window.location.pathname);
    void (async () => {
      try {
        const result = await call(auth.google.callback.$post({ json: { query: query.slice(0, 4096) } }), AUTH_TEXT.providerFailed);
        if (result.status === "signup") return window.location.replace(result.redirect);
        if (result.status === "two_factor") return setState({ kind: "two_factor", next: result.redirect });
        setState({ kind: "signed_in" });
        window.location.replace(result.redirect);
      } catch (err) {
        setState({ kind: "error", message: failureMessage(err, AUTH_TEXT.providerFailed) });
      }
    })();
  }, []);

  if (state.kind === "two_factor") return <TwoFactorStep onSignedIn={() => window.location.assign(state.next)} onCancel={() => window.location.assign("/auth/login")} />;
  return (
    <div className="space-y-4 text-center">
      <h1 className="text-2xl font-bold">Signing you in</h1>
      {state.kind === "working" ? <p role="status" className="text-slate-600">Loading...</p> : null}
      {state.kind === "signed_in" ? <Alert kind="success">{AUTH_TEXT.signedIn}</Alert> : null}
      {state.kind === "error" ? (
        <>
          <Alert>{state.message}</Alert>
          <a href="/auth/login" className="inline-block font-medium text-brand-700 underline-offset-4 hover:underline">
            Back to sign in
          </a>
        </>
      ) : null}
    </div>
  );
}

export default function CallbackPage() {
  return (
    <ErrorBoundary>
      <Callback />
    </ErrorBoundary>
  );
}
