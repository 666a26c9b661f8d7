/**
 * The dashboard's own texts from docs/product.md sections 2, 6 and 8 (toasts, dialog titles, gate tooltips),
 * named once so the dashboard and its tests use the same words.
 */
import { LIMITS } from "./limits.ts";

export const DASH = {
  publishBlockedTitle: "Publishing requires Plinth Plus subscription",
  publishBlockedText: "Remove Plus-only features or upgrade to publish your changes.",
  publishFailed: "Failed to publish page",
  publishFailedText: "Please try again or contact support if the issue persists.",
  published: "Your page has been published!",
  publishedText: "Your changes are now live on your public page.",
  discarded: "Draft changes have been discarded",
  discardedText: "Your draft has been reverted to the last published version.",
  discardFailed: "Failed to discard changes",
  /** Decided in ADR 112: a Plus-only item in a Lite owner's draft, and the Publish dialog's ways out. */
  notOnLivePage: "not on your live page",
  publishBlockersIntro: "These Plus items can't go on a Plinth Lite page:",
  upgrade: "Upgrade",
  hidePlusAndPublish: "Hide Plus items and publish",
  /** ADR 136: hiding is the plan's, at render time; the draft keeps every item. */
  hidePlusNote: "Your draft keeps every item: your plan hides them on your page, and they come back when you upgrade.",
  plusItemsBack: "Your Plus items are back on your page",
  plusItemsBackText: "What Plinth Lite hid is on your live page again.",
  /**
   * Page Layout header: docs/product.md's sentence with the one link limit that applies to this owner now
   * (ADR 143, replacing the display-only "(5 limit)" of ADR 113): Lite's 7, none during a trial or on Plus.
   */
  layoutVisible: (visible: number, total: number, plan: "lite" | "trial" | "plus") =>
    `Manage your page components. ${visible} of ${total} components visible (${plan === "lite" ? `${LIMITS.LITE_MAX_LINKS} limit` : plan === "trial" ? "no limit during your trial" : "no limit"}).`,
  unsavedTitle: "You have unsaved changes",
  unsavedBody: "If you leave now, the changes you have not saved are lost.",
  /** Decided in ADR 140: Escape, a click outside or Close on a dialog that holds unsaved typing. */
  dialogUnsavedBody: "If you close this dialog now, what you typed or chose in it is lost.",
  keepEditing: "Keep Editing",
  discardChanges: "Discard",

  linksLoadFailed: "Failed to load links",
  linkAddFailed: "Failed to add link",
  linkUpdateFailed: "Failed to update link",
  linkDeleteFailed: "Failed to delete link",
  linkAdded: "Link added successfully",
  linkUpdated: "Link updated successfully",
  linkDeleted: "Link deleted successfully",
  linkActivated: "Link activated",
  linkHidden: "Link hidden",
  /** Our choice: a link saved under an older URL rule, which the page draws without its address (ADR 096). */
  linkAddressInvalid: "Invalid URL: edit it to show this link",

  socialLoadFailed: "Failed to load social links",
  socialAddFailed: "Failed to add social link",
  socialAdded: (platform: string) => `${platform} link added successfully!`,
  socialUpdateFailed: "Failed to update social link",
  socialUpdated: "Social link updated successfully!",
  socialRemoveFailed: "Failed to remove social link",
  socialRemoved: "Social link removed successfully!",
  socialReorderFailed: "Failed to reorder social links",
  socialReordered: "Social links reordered successfully!",
  whatsappInvalid: "Please enter a valid phone number for WhatsApp",
  handleRequired: "Please enter a username or handle",

  plusTooltip: "This feature requires Plinth Plus. Click to upgrade!",
  plusTooltipTrial: "This is a Plus feature. Your trial ends soon - upgrade to keep access!",
  liteLinkLimit: "Plinth Lite pages can have up to 7 links. Upgrade to Plinth Plus for unlimited links.",
} as const;
