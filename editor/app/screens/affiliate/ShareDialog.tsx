/**
 * Share referral link dialog (docs/product.md section 2): Copy Text, Social Media, and Visuals (Coming Soon).
 */
import { Tabs } from "radix-ui";
import { Copy, Mail } from "lucide-react";
import { useId } from "react";
import { AFFILIATE_MESSAGES, SHARE_TEXTS } from "#core/affiliate.ts";
import { Button } from "../../components/button.tsx";
import { Modal } from "../../components/modal.tsx";
import { COMMISSION_PERCENT, copyText, tabClass } from "./affiliate-ui.ts";

export function ShareDialog({ open, onOpenChange, url }: { open: boolean; onOpenChange(o: boolean): void; url: string }) {
  const message = SHARE_TEXTS.message(url);
  const textId = useId();
  const e = encodeURIComponent;
  const networks = [
    { name: "X", href: `https://twitter.com/intent/tweet?text=${e(message)}` },
    { name: "Facebook", href: `https://www.facebook.com/sharer/sharer.php?u=${e(url)}` },
    { name: "LinkedIn", href: `https://www.linkedin.com/sharing/share-offsite/?url=${e(url)}` },
    { name: "WhatsApp", href: `https://wa.me/?text=${e(message)}` },
    { name: "Reddit", href: `https://www.reddit.com/submit?url=${e(url)}&title=${e("Build your link-in-bio page with Plinth")}` },
  ];
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={SHARE_TEXTS.title} description={`Everyone who subscribes through your link earns you ${COMMISSION_PERCENT} of what they pay.`}>
      <Tabs.Root defaultValue="copy">
        <Tabs.List aria-label="Ways to share" className="mb-4 flex flex-wrap gap-1 border-b border-slate-200">
          <Tabs.Trigger value="copy" className={tabClass}>
            {SHARE_TEXTS.copyTab}
          </Tabs.Trigger>
          <Tabs.Trigger value="social" className={tabClass}>
            {SHARE_TEXTS.socialTab}
          </Tabs.Trigger>
          <Tabs.Trigger value="visuals" className={tabClass}>
            {SHARE_TEXTS.visualsTab}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="copy" className="space-y-3">
          <label htmlFor={textId} className="block text-sm font-medium">
            Ready-to-post text
          </label>
          <textarea id={textId} readOnly value={message} rows={4} className="w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-2 text-sm" />
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => void copyText(message, AFFILIATE_MESSAGES.textCopied)}>
              <Copy aria-hidden className="size-4" /> Copy Text
            </Button>
            <Button variant="secondary" onClick={() => void copyText(url, AFFILIATE_MESSAGES.linkCopied)}>
              <Copy aria-hidden className="size-4" /> Copy Link
            </Button>
          </div>
        </Tabs.Content>
        <Tabs.Content value="social">
          <ul className="grid gap-2 sm:grid-cols-2">
            {networks.map((n) => (
              <li key={n.name}>
                <a
                  href={n.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="flex min-h-10 items-center justify-center rounded-md border border-slate-300 px-3 py-2 text-sm font-medium hover:bg-slate-50"
                >
                  Share on {n.name}
                </a>
              </li>
            ))}
            <li>
              <a
                href={`mailto:?subject=${e("Build your link-in-bio page with Plinth")}&body=${e(message)}`}
                className="flex min-h-10 items-center justify-center gap-2 rounded-md border border-slate-300 px-3 py-2 text-sm font-medium hover:bg-slate-50"
              >
                <Mail aria-hidden className="size-4" /> Share by Email
              </a>
            </li>
          </ul>
        </Tabs.Content>
        <Tabs.Content value="visuals">
          <div className="rounded-md border border-dashed border-slate-300 p-6 text-center">
            <p className="text-lg font-semibold">{SHARE_TEXTS.visualsSoon}</p>
            <p className="mt-1 text-sm text-slate-600">{SHARE_TEXTS.visualsText}</p>
          </div>
        </Tabs.Content>
      </Tabs.Root>
    </Modal>
  );
}
