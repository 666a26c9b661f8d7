/**
 * /auth/update-password: where the reset e-mail's link lands. Checks the link first, then asks for
 * the new password under the one policy. Setting it signs out everywhere and does not sign in.
 */
import { useEffect, useState, type FormEvent } from "react";
import { AUTH_TEXT, NewPasswordFormSchema } from "#core/schemas/auth.ts";
import { LIMITS } from "#core/limits.ts";
import { auth, AuthFailure, call, failureMessage } from "./api.ts";
import { Alert, Form, PasswordField, PrimaryButton } from "./fields.tsx";
import PasswordStrength from "./PasswordStrength.tsx";
import ErrorBoundary from "../ErrorBoundary.tsx";
import { fieldsOf } from "../field-errors.ts";

function UpdatePasswordForm() {
  const [token, setToken] = useState("");
  const [state, setState] = useState<"checking" | "invalid" | "form" | "done">("checking");
  const [password, setPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const found = new URLSearchParams(window.location.search).get("token") ?? "";
    setToken(found);
    // The token leaves the address bar (and so history and screenshots) once it is read.
    window.history.replaceState(null, "", window.location.pathname);
    void auth["reset-password"]
      .$get({ query: { token: found.slice(0, 200) } })
      .then((r) => r.json())
      .then((r) => setState("valid" in r && r.valid ? "form" : "invalid"))
      .catch(() => setState("invalid"));
  }, []);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = NewPasswordFormSchema.safeParse({ password, confirmPassword });
    if (!parsed.success) {
      return setFields(fieldsOf(parsed.error.issues));
    }
    setFields({});
    setError(null);
    setBusy(true);
    try {
      await call(auth["reset-password"].$post({ json: { token, password, confirmPassword } }), AUTH_TEXT.resetFailed);
      setState("done");
    } catch (err) {
      // A password the server refuses (too easy to guess) is said under its field.
      if (err instanceof AuthFailure && err.fields.password) setFields(err.fields);
      else setError(failureMessage(err, AUTH_TEXT.resetFailed));
    } finally {
      setBusy(false);
    }
  }

  const title = (
    <div className="text-center">
      <h1 className="text-2xl font-bold">Choose a new password</h1>
    </div>
  );

  if (state === "checking") return <p role="status" className="text-center text-slate-600">Loading...</p>;
  if (state === "invalid" || state === "done") {
    return (
      <div className="space-y-4">
        {title}
        {state === "invalid" ? <Alert>{AUTH_TEXT.resetLinkInvalid}</Alert> : <Alert kind="success">{AUTH_TEXT.passwordUpdated}</Alert>}
        <p className="text-center text-sm">
          <a href={state === "invalid" ? "/auth/forgot-password" : "/auth/login"} className="font-medium text-brand-700 underline-offset-4 hover:underline">
            {state === "invalid" ? "Request a new link" : "Sign In"}
          </a>
        </p>
      </div>
    );
  }
  return (
    <Form onSubmit={submit} className="space-y-4">
      {title}
      {error ? <Alert>{error}</Alert> : null}
      <PasswordField
        label="New password"
        autoComplete="new-password"
        autoFocus
        value={password}
        maxLength={LIMITS.PASSWORD_MAX}
        onChange={(e) => setPassword(e.target.value)}
        error={fields.password}
        hint={<PasswordStrength password={password} />}
      />
      <PasswordField
        label="Confirm new password"
        autoComplete="new-password"
        value={confirmPassword}
        maxLength={LIMITS.PASSWORD_MAX}
        onChange={(e) => setConfirmPassword(e.target.value)}
        error={fields.confirmPassword}
      />
      <PrimaryButton busy={busy}>{busy ? "Saving..." : "Update Password"}</PrimaryButton>
    </Form>
  );
}

export default function UpdatePasswordPage() {
  return (
    <ErrorBoundary>
      <UpdatePasswordForm />
    </ErrorBoundary>
  );
}
