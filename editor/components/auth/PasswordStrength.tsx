/** The strength meter and the five checks under a new password (docs/product.md section 5, Password). */
import { Check, X } from "lucide-react";
import { STRENGTH_LOOK } from "./field-rules.ts";
import { PASSWORD_CHECK_LABELS, passwordChecks, passwordStrength, type PasswordCheck } from "#core/auth-rules.ts";


export default function PasswordStrength({ password }: { password: string }) {
  const { strength, meter } = passwordStrength(password);
  const checks = passwordChecks(password);
  const [label, colour] = STRENGTH_LOOK[strength];
  return (
    <div className="space-y-2">
      <div className="flex items-center gap-3">
        <div
          role="meter"
          aria-label="Password strength"
          aria-valuemin={0}
          aria-valuemax={5}
          aria-valuenow={Math.round(meter * 5)}
          aria-valuetext={label}
          className="h-2 flex-1 overflow-hidden rounded-full bg-slate-200"
        >
          <div className={`h-full ${colour} transition-[width]`} style={{ width: `${meter * 100}%` }} />
        </div>
        <span className="w-16 text-right text-sm font-medium text-slate-700">{password ? label : ""}</span>
      </div>
      <ul className="grid gap-1 text-sm sm:grid-cols-2" aria-label="Password requirements">
        {(Object.keys(PASSWORD_CHECK_LABELS) as PasswordCheck[]).map((key) => (
          <li key={key} className={checks[key] ? "flex items-center gap-1.5 text-green-800" : "flex items-center gap-1.5 text-slate-600"}>
            {checks[key] ? <Check aria-hidden className="size-4" /> : <X aria-hidden className="size-4" />}
            <span>
              {PASSWORD_CHECK_LABELS[key]}
              <span className="sr-only">{checks[key] ? " (done)" : " (missing)"}</span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
