/**
 * Back from a paid checkout (?checkout=success on any dashboard page: the Subscription tab, or the
 * Links screen after signup): welcome the new subscriber once and drop the flag from the address, so
 * a reload or a shared link does not welcome them again. The welcome's words load with it, so
 * every screen does not load all of billing's messages for it.
 */
import { useEffect } from "react";
import { toast } from "../../toast.tsx";

export function useCheckoutWelcome() {
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    if (params.get("checkout") !== "success") return;
    void import("#core/billing.ts").then(({ BILLING_MESSAGES }) => toast.success(BILLING_MESSAGES.welcome, { description: BILLING_MESSAGES.welcomeText }));
    params.delete("checkout");
    const rest = params.toString();
    window.history.replaceState(window.history.state, "", `${window.location.pathname}${rest ? `?${rest}` : ""}${window.location.hash}`);
  }, []);
}
