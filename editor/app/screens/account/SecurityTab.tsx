/**
 * Security tab: change password (current one required, the signup policy), two-factor setup with a
 * QR code and backup codes shown once, turning it off with a code, and the active sessions with
 * "Sign out everywhere else".
 */
import { format } from "date-fns";
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { toast } from "sonner";
import { AUTH_TEXT, PasswordChangeSchema, SecondFactorCodeSchema, TwoFactorEnableSchema } from "#core/schemas/auth.ts";
import { LIMITS } from "#core/limits.ts";
import { PasswordField, TextField } from "../../../components/auth/fields.tsx";
import OtpInput from "../../../components/auth/OtpInput.tsx";
import PasswordStrength from "../../../components/auth/PasswordStrength.tsx";
import { fieldsOf } from "../../../components/field-errors.ts";
import { api, ApiFailure, clientErrorMessage, unwrap } from "../../api.ts";
import { Button } from "../../components/ui.tsx";

/** Spec section 8, "server message or fallback": a 4xx's message; the action's own text when the request failed or the server did. */
const messageOf = (err: unknown, fallback: string) => clientErrorMessage(err) ?? fallback;
const when = (iso: string) => format(new Date(iso), "MMM d, yyyy 'at' h:mm a");

function ChangePassword({ hasPassword }: { hasPassword: boolean }) {
  const [form, setForm] = useState({ currentPassword: "", newPassword: "", confirmPassword: "" });
  const [fields, setFields] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = PasswordChangeSchema.safeParse(form);
    if (!parsed.success) return setFields(fieldsOf(parsed.error.issues));
    setFields({});
    setBusy(true);
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

function TwoFactor() {
  const [status, setStatus] = useState<TwoFactorStatus | null>(null);
  const [setup, setSetup] = useState<Setup | null>(null);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [backupCodes, setBackupCodes] = useState<string[] | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => unwrap(api.auth["two-factor"].$get()).then(setStatus, () => setStatus(null)), []);
  useEffect(() => {
    void load();
  }, [load]);

  async function begin() {
    setBusy(true);
    setError(null);
    try {
      setSetup(await unwrap(api.auth["two-factor"].setup.$post()));
      setCode("");
    } catch (err) {
      toast.error(AUTH_TEXT.twoFactorSetupFailed, { description: messageOf(err, "Please try again.") });
    } finally {
      setBusy(false);
    }
  }

  async function enable(e?: FormEvent) {
    e?.preventDefault();
    const parsed = TwoFactorEnableSchema.safeParse({ code });
    if (!parsed.success) return setError(parsed.error.issues[0]!.message);
    setBusy(true);
    setError(null);
    try {
      const { backupCodes: codes } = await unwrap(api.auth["two-factor"].enable.$post({ json: parsed.data }));
      setBackupCodes(codes);
      setSetup(null);
      setCode("");
      await load();
      toast.success("Two-factor authentication is on");
    } catch (err) {
      setError(messageOf(err, AUTH_TEXT.twoFactorVerifyFailed));
      toast.error(AUTH_TEXT.twoFactorVerifyFailed, { description: messageOf(err, "Please try again.") });
      setCode("");
    } finally {
      setBusy(false);
    }
  }

  async function disable(e: FormEvent) {
    e.preventDefault();
    const parsed = SecondFactorCodeSchema.safeParse(code);
    if (!parsed.success) return setError(parsed.error.issues[0]!.message);
    setBusy(true);
    setError(null);
    try {
      setStatus(await unwrap(api.auth["two-factor"].disable.$post({ json: { code: parsed.data } })));
      setDisabling(false);
      setCode("");
      toast.success("Two-factor authentication is off");
    } catch (err) {
      setError(messageOf(err, AUTH_TEXT.twoFactorDisableFailed));
      toast.error(AUTH_TEXT.twoFactorDisableFailed, { description: messageOf(err, "Please try again.") });
    } finally {
      setBusy(false);
    }
  }

  function download(codes: string[]) {
    const blob = new Blob([`Plinth backup codes\nEach code works once.\n\n${codes.join("\n")}\n`], { type: "text/plain" });
    const url = URL.createObjectURL(blob);
    const a = Object.assign(document.createElement("a"), { href: url, download: "plinth-backup-codes.txt" });
    a.click();
    URL.revokeObjectURL(url);
  }

  return (
    <section aria-labelledby="tfa-title" className="space-y-3">
      <h2 id="tfa-title" className="text-lg font-semibold">
        Two-factor authentication
      </h2>
      {!status ? <p className="text-slate-600">Loading...</p> : null}

      {backupCodes ? (
        <div className="max-w-md space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4">
          <h3 className="font-semibold">Save your backup codes</h3>
          <p className="text-sm text-slate-700">
            If you lose your phone, each of these codes signs you in once. They are shown only now: store them somewhere safe.
          </p>
          <ul aria-label="Backup codes" className="grid grid-cols-2 gap-2 font-mono text-sm">
            {backupCodes.map((c) => (
              <li key={c} className="rounded bg-white px-2 py-1">
                {c}
              </li>
            ))}
          </ul>
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => void navigator.clipboard?.writeText(backupCodes.join("\n")).then(() => toast.success("Backup codes copied"), () => toast.error("Copy failed"))}>
              Copy codes
            </Button>
            <Button variant="secondary" onClick={() => download(backupCodes)}>
              Download
            </Button>
            <Button onClick={() => setBackupCodes(null)}>I've saved my codes</Button>
          </div>
        </div>
      ) : null}

      {status && !status.enabled && !setup ? (
        <div className="space-y-2">
          <p className="text-slate-700">Protect your account with a code from an authenticator app each time you sign in.</p>
          <Button onClick={() => void begin()} disabled={busy}>
            Set up two-factor authentication
          </Button>
        </div>
      ) : null}

      {setup ? (
        <form onSubmit={enable} noValidate className="max-w-md space-y-4">
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
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={busy}>
              {busy ? "Verifying..." : "Enable"}
            </Button>
            <Button
              variant="secondary"
              onClick={() => {
                setSetup(null);
                setError(null);
              }}
            >
              Cancel
            </Button>
          </div>
        </form>
      ) : null}

      {status?.enabled ? (
        <div className="space-y-3">
          <p className="text-slate-700">
            <span className="mr-2 rounded bg-green-100 px-2 py-0.5 text-sm font-semibold text-green-900">On</span>
            {status.backupCodesLeft} of {8} backup codes left.
          </p>
          {disabling ? (
            <form onSubmit={disable} noValidate className="max-w-md space-y-3">
              <TextField
                label="Code from your app, or a backup code"
                value={code}
                onChange={(e) => setCode(e.target.value)}
                autoComplete="one-time-code"
                autoFocus
                maxLength={32}
                error={error}
              />
              <div className="flex flex-wrap gap-2">
                <Button type="submit" variant="danger" disabled={busy}>
                  Turn off two-factor
                </Button>
                <Button
                  variant="secondary"
                  onClick={() => {
                    setDisabling(false);
                    setError(null);
                    setCode("");
                  }}
                >
                  Cancel
                </Button>
              </div>
            </form>
          ) : (
            <Button variant="secondary" onClick={() => setDisabling(true)}>
              Turn off
            </Button>
          )}
        </div>
      ) : null}
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
      <TwoFactor />
      <Sessions />
    </div>
  );
}
