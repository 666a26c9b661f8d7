/** The Undo button of a console action's toast: runs the opposite action, says how it went, then reloads. */
import { toast } from "sonner";
import { ApiFailure } from "../app/api.ts";

export function undoAction(run: () => Promise<unknown>, done: string, reload: () => void) {
  return {
    label: "Undo",
    onClick: () =>
      void run().then(
        () => {
          toast.success(done);
          reload();
        },
        (e: unknown) => toast.error(e instanceof ApiFailure ? e.message : "The undo did not work. Please try again."),
      ),
  };
}
