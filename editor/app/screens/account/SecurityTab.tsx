/**
 * Security tab: change password (current one required, the signup policy), two-factor setup with a
 * QR code and backup codes shown once, new backup codes, turning it off, and the active sessions with
 * "Sign out everywhere else". Every two-factor change asks for the password first (or, for a
 * Google-only account, a recent sign-in), in a dialog (ADR 046).
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { toast } from "../../toast.tsx";
import { AUTH_TEXT } from "#core/auth-rules.ts";
import { LIMITS } from "#core/limits.ts";
import { PasswordField, TextField } from "../../../components/auth/fields.tsx";
import OtpInput from "../../../components/auth/OtpInput.tsx";
import PasswordStrength from "../../../components/auth/PasswordStrength.tsx";
import { dateAtTime } from "../../../components/dates.ts";
import { fieldsOf } from "../../../components/field-errors.ts";
import { api, ApiFailure, clientErrorMessage, unwrap } from "../../api.ts";
import { Button } from "../../components/button.tsx";
import { Modal } from "../../components/modal.tsx";
import { useUnsavedChanges } from "../../shell/unsaved.tsx";

/** docs/product.md section 8, "server message or fallback": a 4xx's message; the action's own text when the request failed or the server did. */
const messageOf = (err: unknown, fallback: string) => clientErrorMessage(err) ?? fallback;
const when = (iso: string) => dateAtTime(new Date(iso));

function ChangePassword({ hasPassword }: { hasPassword: boolean }) {
  const [form, setForm] = useState({ currentPassword: "", newPassword: "", confirmPassword: "" });
  const [fields, setFields] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));
  useUnsavedChanges("password", Object.values(form).some((v) => v !== ""));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    const { PasswordChangeSchema } = await import("#core/schemas/auth.ts");
    const parsed = PasswordChangeSchema.safeParse(form);
    if (!parsed.success) {
      setBusy(false);
      return setFields(fieldsOf(parsed.error.issues));
    }
    setFields({});
    try {
      await unwrap(api.auth.password.$post({ json: parsed.data }));
      toast.success(AUTH_TEXT.passwordChanged, { description: "Every other session was signed out." });
      setForm({ currentPassword: "", newPassword: "", confirmPassword: "" });
    } catch (err) {
      if (err instanceof ApiFailure) setFields(err.fields);
      toast.error("Error", { description: messageOf(err, AUTH_TEXT.passwordChangeFailed) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="password-title" className="space-y-3">
      <h2 id="password-title" className="text-lg font-semibold">
        Change password
      </h2>
      {hasPassword ? (
        <form onSubmit={submit} noValidate className="max-w-md space-y-4">
          <PasswordField label="Current password" autoComplete="current-password" value={form.currentPassword} onChange={set("currentPassword")} error={fields.currentPassword} maxLength={LIMITS.PASSWORD_MAX} />
          <PasswordField
            label="New password"
            autoComplete="new-password"
            value={form.newPassword}
            onChange={set("newPassword")}
            error={fields.newPassword}
            maxLength={LIMITS.PASSWORD_MAX}
            hint={<PasswordStrength password={form.newPassword} />}
          />
          <PasswordField label="Confirm new password" autoComplete="new-password" value={form.confirmPassword} onChange={set("confirmPassword")} error={fields.confirmPassword} maxLength={LIMITS.PASSWORD_MAX} />
          <Button type="submit" disabled={busy}>
            {busy ? "Updating..." : "Update Password"}
          </Button>
        </form>
      ) : (
        <p className="text-slate-700">
          You sign in with Google. To add a password, use{" "}
          <a href="/auth/forgot-password" className="font-medium text-brand-700 underline underline-offset-4">
            Forgot password
          </a>
          .
        </p>
      )}
    </section>
  );
}

type TwoFactorStatus = { enabled: boolean; pendingSetup: boolean; backupCodesLeft: number };
type Setup = { secret: string; uri: string; qrDataUrl: string };
type Dialog = "setup" | "disable" | "renew" | null;

/** A Google-only account signs in again to change two-factor (ADR 046); the same page is the way back. */
const SIGN_IN_AGAIN = `/api/auth/google?remember=1&next=${encodeURIComponent("/dashboard/account-settings?tab=security")}`;
const needsFreshSignIn = (err: unknown) => err instanceof ApiFailure && err.status === 403 && err.details.reason === "fresh_sign_in";

function FreshSignIn({ message }: { message: string }) {
  return (
    <div role="alert" className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-slate-800">
      <p>{message}</p>
      <a href={SIGN_IN_AGAIN} className="font-medium text-brand-700 underline underline-offset-4">
        Sign in again with Google
      </a>
    </div>
  );
}

/** A dialog form's buttons: Cancel, then the form's own submit button. */
function DialogActions({ onCancel, children }: { onCancel(): void; children: ReactNode }) {
  return (
    <div className="flex flex-wrap justify-end gap-2">
      <Button variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
      {children}
    </div>
  );
}

/**
 * A two-factor dialog's form tells the one dialog around it whether it holds typing (ADR 140): the
 * password or the code differs from the empty field it opened with. A layout effect, so the dialog
 * knows before the next key arrives: an Escape right after the field is emptied closes at once.
 */
function useReportDirty(dirty: boolean, onDirty: (dirty: boolean) => void) {
  useLayoutEffect(() => {
    onDirty(dirty);
  }, [dirty, onDirty]);
}

/** New backup codes, shown this once, with copy and download. */
function BackupCodes({ codes, onDone }: { codes: string[]; onDone(): void }) {
  function download() {
    const blob = new Blob([`Plinth backup codes\nEach code works once.\n\n${codes.join("\n")}\n`], { type: "text/plain" });
    const url = URL.createObjectURL(blob);
    const a = Object.assign(document.createElement("a"), { href: url, download: "plinth-backup-codes.txt" });
    a.click();
    URL.revokeObjectURL(url);
  }
  return (
    <div className="space-y-3">
      <h3 className="font-semibold">Save your backup codes</h3>
      <p className="text-sm text-slate-700">
        If you lose your phone, each of these codes signs you in once. They are shown only now: store them somewhere safe.
      </p>
      <ul aria-label="Backup codes" className="grid grid-cols-2 gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 font-mono text-sm">
        {codes.map((c) => (
          <li key={c} className="rounded bg-white px-2 py-1">
            {c}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => void navigator.clipboard?.writeText(codes.join("\n")).then(() => toast.success("Backup codes copied"), () => toast.error("Copy failed"))}>
          Copy codes
        </Button>
        <Button variant="secondary" onClick={download}>
          Download
        </Button>
        <Button onClick={onDone}>I've saved my codes</Button>
      </div>
    </div>
  );
}

/** Setup: the password (or a fresh sign-in) first, then the QR code and a code from the app, then the backup codes. */
function SetupDialog({ hasPassword, onEnabled, onClose, onDirty }: { hasPassword: boolean; onEnabled(): void; onClose(): void; onDirty(dirty: boolean): void }) {
  const [password, setPassword] = useState("");
  const [setup, setSetup] = useState<Setup | null>(null);
  const [code, setCode] = useState("");
  const [codes, setCodes] = useState<string[] | null>(null);
  // A password or a code typed and not yet sent (ADR 140); the backup codes on show have no field.
  useReportDirty(!codes && (password !== "" || code !== ""), onDirty);
  const [error, setError] = useState<string | null>(null);
  const [freshSignIn, setFreshSignIn] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function begin(e: FormEvent) {
    e.preventDefault();
    if (hasPassword && !password) return setError(AUTH_TEXT.confirmPasswordRequired);
    setBusy(true);
    setError(null);
    try {
      setSetup(await unwrap(api.auth["two-factor"].setup.$post({ json: hasPassword ? { password } : {} })));
      setPassword("");
    } catch (err) {
      if (needsFreshSignIn(err)) setFreshSignIn((err as ApiFailure).message);
      else if (err instanceof ApiFailure && err.fields.password) setError(err.fields.password);
      else toast.error(AUTH_TEXT.twoFactorSetupFailed, { description: messageOf(err, "Please try again.") });
    } finally {
      setBusy(false);
    }
  }

  async function enable(e?: FormEvent) {
    e?.preventDefault();
    setBusy(true);
    const { TwoFactorEnableSchema } = await import("#core/schemas/auth.ts");
    const parsed = TwoFactorEnableSchema.safeParse({ code });
    if (!parsed.success) {
      setBusy(false);
      return setError(parsed.error.issues[0]!.message);
    }
    setError(null);
    try {
      const { backupCodes } = await unwrap(api.auth["two-factor"].enable.$post({ json: parsed.data }));
      setCodes(backupCodes);
      onEnabled();
      toast.success("Two-factor authentication is on");
    } catch (err) {
      setError(messageOf(err, AUTH_TEXT.twoFactorVerifyFailed));
      toast.error(AUTH_TEXT.twoFactorVerifyFailed, { description: messageOf(err, "Please try again.") });
      setCode("");
    } finally {
      setBusy(false);
    }
  }

  if (codes) return <BackupCodes codes={codes} onDone={onClose} />;

  if (setup) {
    return (
      <form onSubmit={enable} noValidate className="space-y-4">
        <ol className="list-decimal space-y-2 pl-5 text-slate-700">
          <li>Scan this QR code with your authenticator app.</li>
          <li>Enter the 6-digit code the app shows.</li>
        </ol>
        <img src={setup.qrDataUrl} alt="QR code for your authenticator app" width={200} height={200} className="rounded border border-slate-200 bg-white p-2" />
        <p className="text-sm text-slate-700">
          Can't scan it? Enter this key: <code className="break-all rounded bg-slate-100 px-1 font-mono" data-testid="totp-secret">{setup.secret}</code>
        </p>
        <OtpInput value={code} onChange={setCode} disabled={busy} invalid={!!error} label="Authentication code" autoFocus={false} />
        {error ? (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        ) : null}
        <DialogActions onCancel={onClose}>
          <Button type="submit" disabled={busy}>
            {busy ? "Verifying..." : "Enable"}
          </Button>
        </DialogActions>
      </form>
    );
  }

  return (
    <form onSubmit={begin} noValidate className="space-y-4">
      {freshSignIn ? <FreshSignIn message={freshSignIn} /> : null}
      {hasPassword ? (
        <PasswordField label="Password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} error={error} maxLength={LIMITS.PASSWORD_MAX} />
      ) : (
        <p className="text-sm text-slate-700">You sign in with Google: this works within 10 minutes of signing in.</p>
      )}
      <DialogActions onCancel={onClose}>
        <Button type="submit" disabled={busy}>
          {busy ? "Checking..." : "Continue"}
        </Button>
      </DialogActions>
    </form>
  );
}

/** Turning two-factor off, or making new backup codes: the password (or a fresh sign-in) and a code. */
function ConfirmChangeDialog({
  kind,
  hasPassword,
  onDone,
  onClose,
  onDirty,
}: {
  kind: "disable" | "renew";
  hasPassword: boolean;
  onDone(status: TwoFactorStatus | null): void;
  onClose(): void;
  onDirty(dirty: boolean): void;
}) {
  const [form, setForm] = useState({ password: "", code: "" });
  const [fields, setFields] = useState<Record<string, string>>({});
  const [freshSignIn, setFreshSignIn] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  useReportDirty(!codes && (form.password !== "" || form.code !== ""), onDirty);
  const [busy, setBusy] = useState(false);
  const failed = kind === "disable" ? AUTH_TEXT.twoFactorDisableFailed : "Failed to generate new backup codes";

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    const { TwoFactorChangeSchema } = await import("#core/schemas/auth.ts");
    const parsed = TwoFactorChangeSchema.safeParse({ password: hasPassword ? form.password : undefined, code: form.code });
    const next: Record<string, string> = parsed.success ? {} : fieldsOf(parsed.error.issues);
    if (hasPassword && !form.password) next.password = AUTH_TEXT.confirmPasswordRequired;
    if (Object.keys(next).length) {
      setBusy(false);
      return setFields(next);
    }
    setFields({});
    try {
      const json = parsed.data!;
      if (kind === "disable") {
        onDone(await unwrap(api.auth["two-factor"].disable.$post({ json })));
        toast.success("Two-factor authentication is off");
        onClose();
      } else {
        const { backupCodes } = await unwrap(api.auth["two-factor"]["backup-codes"].$post({ json }));
        setCodes(backupCodes);
        onDone(null);
        toast.success("New backup codes are ready");
      }
    } catch (err) {
      if (needsFreshSignIn(err)) setFreshSignIn((err as ApiFailure).message);
      else {
        const message = messageOf(err, failed);
        // A 4xx names its field (a wrong password or code); anything else goes on the code field.
        setFields(err instanceof ApiFailure && Object.keys(err.fields).length ? err.fields : { code: message });
        toast.error(failed, { description: messageOf(err, "Please try again.") });
      }
    } finally {
      setBusy(false);
    }
  }

  if (codes) return <BackupCodes codes={codes} onDone={onClose} />;

  const set = (key: "password" | "code") => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {freshSignIn ? <FreshSignIn message={freshSignIn} /> : null}
      {hasPassword ? (
        <PasswordField label="Password" autoComplete="current-password" value={form.password} onChange={set("password")} error={fields.password} maxLength={LIMITS.PASSWORD_MAX} />
      ) : null}
      <TextField
        label="Code from your app, or a backup code"
        value={form.code}
        onChange={set("code")}
        autoComplete="one-time-code"
        maxLength={32}
        error={fields.code}
      />
      <DialogActions onCancel={onClose}>
        <Button type="submit" variant={kind === "disable" ? "danger" : "primary"} disabled={busy}>
          {kind === "disable" ? "Turn off two-factor" : busy ? "Generating..." : "Generate new codes"}
        </Button>
      </DialogActions>
    </form>
  );
}

const DIALOG_TEXT = {
  setup: { title: "Set up two-factor authentication", description: "Confirm it's you, then scan a QR code with your authenticator app." },
  disable: { title: "Turn off two-factor authentication", description: "Confirm it's you. You will then sign in with your password alone." },
  renew: { title: "Generate new backup codes", description: "Confirm it's you. Your current backup codes stop working as soon as the new ones are made." },
} as const;

function TwoFactor({ hasPassword }: { hasPassword: boolean }) {
  const [status, setStatus] = useState<TwoFactorStatus | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  // What the open dialog's form reports: it holds a password or a code not yet sent.
  const [dirty, setDirty] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  const load = useCallback(() => unwrap(api.auth["two-factor"].$get()).then(setStatus, () => setStatus(null)), []);
  useEffect(() => {
    void load();
  }, [load]);

  const close = () => {
    setDialog(null);
    setDirty(false);
  };

  return (
    <section aria-labelledby="tfa-title" className="space-y-3">
      <h2 id="tfa-title" ref={heading} tabIndex={-1} className="text-lg font-semibold">
        Two-factor authentication
      </h2>
      {!status ? <p className="text-slate-600">Loading...</p> : null}

      {status && !status.enabled ? (
        <div className="space-y-2">
          <p className="text-slate-700">Protect your account with a code from an authenticator app each time you sign in.</p>
          <Button onClick={() => setDialog("setup")}>Set up two-factor authentication</Button>
        </div>
      ) : null}

      {status?.enabled ? (
        <div className="space-y-3">
          <p className="text-slate-700">
            <span className="mr-2 rounded bg-green-100 px-2 py-0.5 text-sm font-semibold text-green-900">On</span>
            {status.backupCodesLeft} of {8} backup codes left.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => setDialog("renew")}>
              Generate new backup codes
            </Button>
            <Button variant="secondary" onClick={() => setDialog("disable")}>
              Turn off
            </Button>
          </div>
        </div>
      ) : null}

      <Modal
        open={dialog !== null}
        onOpenChange={(o) => !o && close()}
        dirty={dirty}
        title={dialog ? DIALOG_TEXT[dialog].title : ""}
        description={dialog ? DIALOG_TEXT[dialog].description : undefined}
        returnFocusTo={heading}
      >
        {dialog === "setup" ? <SetupDialog hasPassword={hasPassword} onEnabled={() => void load()} onClose={close} onDirty={setDirty} /> : null}
        {dialog === "disable" || dialog === "renew" ? (
          <ConfirmChangeDialog kind={dialog} hasPassword={hasPassword} onDone={(next) => (next ? setStatus(next) : void load())} onClose={close} onDirty={setDirty} />
        ) : null}
      </Modal>
    </section>
  );
}

/** "Chrome on macOS" from a user-agent string, good enough to tell one's devices apart. */
export function deviceName(ua: string | null): string {
  if (!ua) return "Unknown device";
  const browser = /Edg\//.test(ua) ? "Edge" : /Firefox\//.test(ua) ? "Firefox" : /Chrom(e|ium)\//.test(ua) ? "Chrome" : /Safari\//.test(ua) ? "Safari" : "Browser";
  const os = /iPhone|iPad/.test(ua) ? "iOS" : /Android/.test(ua) ? "Android" : /Mac OS X/.test(ua) ? "macOS" : /Windows/.test(ua) ? "Windows" : /Linux/.test(ua) ? "Linux" : "";
  return os ? `${browser} on ${os}` : browser;
}

type SessionRow = { id: string; userAgent: string | null; createdAt: string; lastSeenAt: string; current: boolean };

function Sessions() {
  const [list, setList] = useState<SessionRow[] | null>(null);
  const load = useCallback(() => unwrap(api.auth.sessions.$get()).then((r) => setList(r.sessions), () => setList([])), []);
  useEffect(() => {
    void load();
  }, [load]);

  async function endOthers() {
    try {
      const { ended } = await unwrap(api.auth.sessions["revoke-others"].$post());
      toast.success(ended === 1 ? "Signed out of 1 other session" : `Signed out of ${ended} other sessions`);
    } catch (err) {
      toast.error(messageOf(err, AUTH_TEXT.signOutFailed));
    }
    await load();
  }

  async function end(id: string) {
    try {
      await unwrap(api.auth.sessions[":id"].$delete({ param: { id } }));
      toast.success("Session signed out");
    } catch (err) {
      toast.error(messageOf(err, AUTH_TEXT.signOutFailed));
    }
    await load();
  }

  return (
    <section aria-labelledby="sessions-title" className="space-y-3">
      <h2 id="sessions-title" className="text-lg font-semibold">
        Active sessions
      </h2>
      {!list ? <p className="text-slate-600">Loading...</p> : null}
      {list ? (
        <ul className="max-w-2xl divide-y divide-slate-200 rounded-lg border border-slate-200" aria-label="Active sessions">
          {list.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 p-3">
              <div>
                <p className="font-medium">
                  {deviceName(s.userAgent)}
                  {s.current ? <span className="ml-2 rounded bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700">This device</span> : null}
                </p>
                <p className="text-sm text-slate-600">
                  Signed in {when(s.createdAt)} · Last active {when(s.lastSeenAt)}
                </p>
              </div>
              {s.current ? null : (
                <Button variant="secondary" onClick={() => void end(s.id)} aria-label={`Sign out ${deviceName(s.userAgent)}, signed in ${when(s.createdAt)}`}>
                  Sign out
                </Button>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      <Button variant="secondary" onClick={() => void endOthers()} disabled={!list || list.length < 2}>
        Sign out everywhere else
      </Button>
    </section>
  );
}

export default function SecurityTab() {
  const [hasPassword, setHasPassword] = useState<boolean | null>(null);
  useEffect(() => {
    unwrap(api.auth.account.$get()).then((a) => setHasPassword(a.hasPassword), () => setHasPassword(true));
  }, []);
  return (
    <div className="space-y-10">
      {hasPassword === null ? <p className="text-slate-600">Loading...</p> : <ChangePassword hasPassword={hasPassword} />}
      <TwoFactor hasPassword={hasPassword !== false} />
      <Sessions />
    </div>
  );
}
