/**
 * Form pieces of the auth pages: a labelled field with its error, the password input with a
 * show/hide toggle, an alert box, and the primary button. The dashboard's and the checkout's forms
 * write their fields' errors with the same FieldError.
 */
import { Eye, EyeOff } from "lucide-react";
import { useEffect, useId, useState, type ButtonHTMLAttributes, type FormHTMLAttributes, type InputHTMLAttributes, type ReactNode } from "react";

export function FieldError({ id, message }: { id: string; message?: string | null }) {
  return message ? (
    <p id={id} className="mt-1 text-sm text-red-700">
      {message}
    </p>
  ) : null;
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id"> & { label: string; error?: string | null; hint?: ReactNode };

export function TextField({ label, error, hint, className = "", ...input }: InputProps) {
  const id = useId();
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        className="mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 aria-[invalid=true]:border-red-600"
        {...input}
      />
      {hint ? (
        <div id={`${id}-hint`} className="mt-1 text-sm text-slate-600">
          {hint}
        </div>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

export function PasswordField({ label, error, hint, className = "", ...input }: InputProps) {
  const id = useId();
  const [shown, setShown] = useState(false);
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="relative mt-1">
        <input
          id={id}
          type={shown ? "text" : "password"}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          className="block w-full rounded-md border border-slate-400 bg-white py-2 pl-3 pr-11 text-slate-900 aria-[invalid=true]:border-red-600"
          {...input}
        />
        <button
          type="button"
          onClick={() => setShown((s) => !s)}
          aria-label={shown ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
          aria-pressed={shown}
          className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-md text-slate-600 hover:text-slate-900"
        >
          {shown ? <EyeOff aria-hidden className="size-5" /> : <Eye aria-hidden className="size-5" />}
        </button>
      </div>
      {hint ? (
        <div id={`${id}-hint`} className="mt-2">
          {hint}
        </div>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

export function Alert({ kind = "error", title, children }: { kind?: "error" | "success" | "info"; title?: string; children?: ReactNode }) {
  const tone =
    kind === "error" ? "border-red-300 bg-red-50 text-red-900" : kind === "success" ? "border-green-300 bg-green-50 text-green-900" : "border-slate-300 bg-slate-50 text-slate-800";
  return (
    <div role={kind === "error" ? "alert" : "status"} className={`rounded-md border px-3 py-2 text-sm ${tone}`}>
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div className={title ? "mt-1" : ""}>{children}</div> : null}
    </div>
  );
}

export function PrimaryButton({ busy, children, className = "", ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { busy?: boolean }) {
  return (
    <button
      type="submit"
      aria-busy={busy || undefined}
      {...props}
      disabled={props.disabled || busy}
      className={`inline-flex min-h-11 w-full items-center justify-center rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-600 ${className}`}
    >
      {children}
    </button>
  );
}

/**
 * A form whose controls stay disabled until the page's script has taken over, so a click or a
 * keystroke before that cannot submit the bare HTML form or be lost.
 */
let hydrated = false;
export function Form({ children, className = "", ...props }: FormHTMLAttributes<HTMLFormElement>) {
  // Forms mounted after the first one (the next wizard step) start enabled, so autofocus works.
  const [ready, setReady] = useState(hydrated);
  useEffect(() => {
    hydrated = true;
    setReady(true);
  }, []);
  return (
    <form noValidate {...props}>
      <fieldset disabled={!ready} className={`m-0 min-w-0 border-0 p-0 ${className}`}>
        {children}
      </fieldset>
    </form>
  );
}
