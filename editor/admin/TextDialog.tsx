/** A dialog that asks for one text (a payment reference, a reason for the record), then runs the action. */
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { ApiFailure } from "../app/api.ts";
import { Button } from "../app/components/button.tsx";
import { Modal } from "../app/components/modal.tsx";

export function TextDialog(props: {
  open: boolean;
  title: string;
  description: string;
  label: string;
  multiline?: boolean;
  maxLength: number;
  confirm: string;
  danger?: boolean;
  onClose(): void;
  /** Throws an ApiFailure to show its message under the field and keep the dialog open. */
  onSubmit(text: string): Promise<void>;
}) {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fieldId = useId();
  const errorId = useId();
  useEffect(() => {
    if (props.open) {
      setText("");
      setError(null);
    }
  }, [props.open]);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await props.onSubmit(text);
      props.onClose();
    } catch (err) {
      setError(err instanceof ApiFailure ? err.message : "That did not work. Please try again.");
    } finally {
      setBusy(false);
    }
  }
  const field = {
    id: fieldId,
    value: text,
    maxLength: props.maxLength,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? errorId : undefined,
    className: "mt-1 w-full rounded-md border border-slate-300 px-3 py-2",
  } as const;
  return (
    <Modal open={props.open} onOpenChange={(o) => !o && !busy && props.onClose()} dirty={text !== ""} title={props.title} description={props.description}>
      <form onSubmit={submit} noValidate>
        <label htmlFor={fieldId} className="block text-sm font-medium">
          {props.label}
        </label>
        {props.multiline ? <textarea {...field} rows={4} onChange={(e) => setText(e.target.value)} /> : <input {...field} onChange={(e) => setText(e.target.value)} />}
        {error ? (
          <p id={errorId} role="alert" className="mt-1 text-sm text-red-700">
            {error}
          </p>
        ) : null}
        <div className="mt-4 flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={props.onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant={props.danger ? "danger" : "primary"} disabled={busy}>
            {props.confirm}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/**
 * What a dialog is about, kept while the dialog closes (after the value is set back to null), so the
 * dialog can finish closing and hand focus back to the button that opened it.
 */
export function useKeptWhileClosing<T>(value: T | null): T | null {
  const last = useRef(value);
  if (value) last.current = value;
  return last.current;
}
