/**
 * /auth/verify-email: the verification e-mail's link. The page posts the token (a link that only
 * opens the page cannot be used up by a mail scanner's prefetch).
 */
import { useEffect, useState } from "react";
import { AUTH_TEXT } from "#core/schemas/auth.ts";
import { auth, call, failureMessage } from "./api.ts";
import { Alert } from "./fields.tsx";
import ErrorBoundary from "../ErrorBoundary.tsx";

function VerifyEmailForm() {
  const [state, setState] = useState<{ kind: "working" } | { kind: "done" | "error"; message: string }>({ kind: "working" });
  useEffect(() => {
    const token = new URLSearchParams(window.location.search).get("token") ?? "";
    window.history.replaceState(null, "", window.location.pathname);
    void call(auth["verify-email"].$post({ json: { token: token.slice(0, 100) } }), AUTH_TEXT.verifyLinkInvalid)
      .then((r) => setState({ kind: "done", message: r.message }))
      .catch((err) => setState({ kind: "error", message: failureMessage(err, AUTH_TEXT.verifyLinkInvalid) }));
  }, []);
  return (
    <div className="space-y-4 text-center">
      <h1 className="text-2xl font-bold">Verify your email</h1>
      {state.kind === "working" ? <p role="status" className="text-slate-600">Loading...</p> : <Alert kind={state.kind === "done" ? "success" : "error"}>{state.message}</Alert>}
      {state.kind !== "working" ? (
        <a href="/auth/login" className="inline-block font-medium text-brand-700 underline-offset-4 hover:underline">
          Sign In
        </a>
      ) : null}
    </div>
  );
}

export default function VerifyEmailPage() {
  return (
    <ErrorBoundary>
      <VerifyEmailForm />
    </ErrorBoundary>
  );
}
