/**
 * /auth/login (spec section 2, Login): e-mail, password with show/hide, Remember me, Forgot
 * password?, the way to signup, Continue with Google; then the second step when two-factor is on.
 * Success goes to the dashboard page the owner was sent away from, or /dashboard/links.
 */
import { useEffect, useState, type FormEvent } from "react";
import { AUTH_TEXT, LoginFormSchema, safeNextPath } from "#core/schemas/auth.ts";
import { LIMITS } from "#core/limits.ts";
import { AuthFailure, auth, call, failureMessage } from "./api.ts";
import { Alert, Form, PasswordField, PrimaryButton, TextField } from "./fields.tsx";
import GoogleButton from "./GoogleButton.tsx";
import TwoFactorStep from "./TwoFactorStep.tsx";
import ErrorBoundary from "../ErrorBoundary.tsx";
import { fieldsOf } from "../field-errors.ts";

type Problem = { kind: "error"; message: string } | { kind: "unverified"; email: string };

function LoginForm() {
  const [next, setNext] = useState<string>(safeNextPath(null));
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [rememberMe, setRememberMe] = useState(false);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<Problem | null>(null);
  const [resend, setResend] = useState<{ kind: "success" | "error"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [step, setStep] = useState<"form" | "two_factor" | "done">("form");

  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const target = safeNextPath(params.get("next"));
    setNext(target);
    if (params.get("error") === "provider") setProblem({ kind: "error", message: AUTH_TEXT.providerFailed });
    // Already signed in: straight on.
    void auth.session
      .$get()
      .then((r) => r.json())
      .then((s) => {
        if (s.signedIn) window.location.replace(target);
      })
      .catch(() => undefined);
  }, []);

  function signedIn() {
    setStep("done");
    window.location.assign(next);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setProblem(null);
    setResend(null);
    const parsed = LoginFormSchema.safeParse({ email, password, rememberMe });
    if (!parsed.success) {
      setFields(fieldsOf(parsed.error.issues));
      return;
    }
    setFields({});
    setBusy(true);
    try {
      const result = await call(auth.login.$post({ json: parsed.data }), AUTH_TEXT.signInFailed);
      if (result.status === "two_factor") {
        setStep("two_factor");
        setBusy(false);
      } else signedIn();
    } catch (err) {
      setBusy(false);
      if (err instanceof AuthFailure && err.details.reason === "email_unverified") setProblem({ kind: "unverified", email: parsed.data.email });
      else setProblem({ kind: "error", message: failureMessage(err, AUTH_TEXT.signInFailed) });
      if (err instanceof AuthFailure && Object.keys(err.fields).length) setFields(err.fields);
    }
  }

  async function resendVerification(address: string) {
    setResend(null);
    try {
      const r = await call(auth["resend-verification"].$post({ json: { email: address } }), AUTH_TEXT.verificationFailed);
      setResend({ kind: "success", text: r.message });
    } catch (err) {
      setResend({ kind: "error", text: failureMessage(err, AUTH_TEXT.verificationFailed) });
    }
  }

  if (step === "done") return <Alert kind="success">{AUTH_TEXT.signedIn}</Alert>;
  if (step === "two_factor") return <TwoFactorStep onSignedIn={signedIn} onCancel={() => setStep("form")} />;

  return (
    <Form onSubmit={submit} className="space-y-4">
      <div className="text-center">
        <h1 className="text-2xl font-bold">Welcome Back</h1>
        <p className="mt-1 text-slate-700">Sign in to your Plinth account</p>
      </div>
      {problem?.kind === "error" ? <Alert>{problem.message}</Alert> : null}
      {problem?.kind === "unverified" ? (
        <Alert title={AUTH_TEXT.unverifiedTitle}>
          <p>{AUTH_TEXT.unverifiedText}</p>
          <button type="button" onClick={() => void resendVerification(problem.email)} className="mt-2 font-semibold underline underline-offset-4">
            Resend Verification
          </button>
        </Alert>
      ) : null}
      {resend ? <Alert kind={resend.kind}>{resend.text}</Alert> : null}
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        value={email}
        maxLength={LIMITS.EMAIL_MAX * 2}
        onChange={(e) => setEmail(e.target.value)}
        error={fields.email}
      />
      <PasswordField label="Password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} error={fields.password} />
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={rememberMe} onChange={(e) => setRememberMe(e.target.checked)} className="size-4" />
          Remember me
        </label>
        <a href="/auth/forgot-password" className="font-medium text-brand-700 underline-offset-4 hover:underline">
          Forgot password?
        </a>
      </div>
      <PrimaryButton busy={busy}>{busy ? "Signing in..." : "Sign In"}</PrimaryButton>
      <GoogleButton next={next} remember={rememberMe} />
      <p className="text-center text-sm text-slate-700">
        Don't have an account?{" "}
        <a href="/auth/signup" className="font-medium text-brand-700 underline-offset-4 hover:underline">
          Sign up
        </a>
      </p>
    </Form>
  );
}

export default function LoginPage() {
  return (
    <ErrorBoundary>
      <LoginForm />
    </ErrorBoundary>
  );
}
