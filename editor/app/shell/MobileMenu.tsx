/**
 * The navigation drawer of small screens: Radix's dialog, loaded by the shell on the first press of
 * its Open menu button (ADR 132). It then replaces that button with its own trigger, already open.
 */
import { Dialog } from "radix-ui";
import { Menu, X } from "lucide-react";
import type { ReactNode } from "react";

export function MobileMenuDialog({ open, onOpenChange, children }: { open: boolean; onOpenChange(open: boolean): void; children: ReactNode }) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger className="rounded p-2 hover:bg-slate-100 lg:hidden" aria-label="Open menu">
        <Menu aria-hidden className="size-5" />
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content className="fixed inset-y-0 left-0 z-50 w-72 max-w-[85vw] overflow-y-auto bg-white p-4 shadow-xl">
          <div className="mb-4 flex items-center justify-between">
            <Dialog.Title className="text-lg font-bold">Menu</Dialog.Title>
            <Dialog.Description className="sr-only">Dashboard navigation</Dialog.Description>
            <Dialog.Close className="rounded p-1 hover:bg-slate-100" aria-label="Close menu">
              <X aria-hidden className="size-5" />
            </Dialog.Close>
          </div>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
