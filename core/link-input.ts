/**
 * A link as the owner enters it (docs/product.md section 5, Links): the fields each type requires, URLs the
 * public page will link to (core/url-rule.ts), text by core/text-rule.ts, and the url stored for
 * each type.
 */
import { z } from "zod";
import { DASH } from "./dashboard-texts.ts";
import { recognizeEmbed } from "./embeds.ts";
import { LIMITS } from "./limits.ts";
import { HASH_URL_LINK_TYPES, LINK_TYPES, PROMOTE_LINK_TYPE, URL_REQUIRED_LINK_TYPES, type LinkType } from "./link-types.ts";
import { MUSIC_MESSAGES, musicServicesData, type MusicServiceLink } from "./music.ts";
import { MusicServicesSchema } from "./schemas/music.ts";
import { AmountSchema, CurrencySchema, DownloadFileIdSchema, SuggestedAmountsSchema } from "./schemas/payments.ts";
import { PAYMENT_MESSAGES, PAYMENTS } from "./payments.ts";
import { getPlatform, PLATFORM_IDS } from "./platforms.ts";
import { cleanHandle, SOCIAL_HANDLE_MAX } from "./social-handle.ts";
import { multiLine, singleLine } from "./text-rule.ts";
import { CONTACT_LINK_TYPES, completeUrl, contactSchemeOf, isLinkAddress, isMediaPath, isWebUrl } from "./url-rule.ts";

export { isMediaPath } from "./url-rule.ts";

export const LINK_MESSAGES = {
  titleRequired: "Title is required",
  titleTooLong: `Title must be ${LIMITS.LINK_TITLE_MAX} characters or less`,
  urlRequired: "URL is required",
  urlInvalid: "Please enter a valid URL",
  emailLinkInvalid: "Please enter one email address, like mailto:you@example.com (a subject is optional)",
  phoneLinkInvalid: "Please enter the number with its country code, like tel:+14155550123",
  textLinkInvalid: "Please enter the number with its country code, like sms:+14155550123",
  linkTextRequired: "Link Text is required",
  descriptionRequired: "Description is required",
  fullNameRequired: "Full Name is required",
  emailInvalid: "Please enter a valid email address",
  tooLong: "This field is too long",
  playerSwitch: "Please choose on or off",
  notPlayer: "Only YouTube, Vimeo, Spotify, SoundCloud, Apple Music, Bandcamp and TikTok addresses can show as a player",
  platformRequired: "Please choose a platform",
} as const;

/**
 * A Music link's services as sent: the ordered array, or its stored JSON text (what the dialog read
 * from link_specific_data.services). Text that is not JSON is refused as a missing list.
 */
const musicServicesInput = z.preprocess((v) => {
  if (typeof v !== "string") return v;
  if (v.length > 8 * (LIMITS.URL_MAX + 64)) return null;
  try {
    return JSON.parse(v);
  } catch {
    return null;
  }
}, MusicServicesSchema);

const line = (max: number) => singleLine().max(max, LINK_MESSAGES.tooLong).optional().default("");
const lines = (max: number) => multiLine().max(max, LINK_MESSAGES.tooLong).optional().default("");
/** A URL field, completed as the dialog completes it (core/url-rule.ts completeUrl, ADR 145). */
const urlText = (contact = false) =>
  z
    .string()
    .trim()
    .overwrite((v) => completeUrl(v, contact))
    .max(LIMITS.URL_MAX, LINK_MESSAGES.urlInvalid)
    .optional()
    .default("");

/**
 * Why the page would not link a link of this type to `url`, in words the owner can act on, or null
 * when it would (core/url-rule.ts isLinkAddress: a web URL, or for a button or text link an e-mail,
 * phone or text-message link, ADR 144).
 */
export function linkUrlProblem(linkType: LinkType, url: string): string | null {
  if (isLinkAddress(linkType, url)) return null;
  const scheme = CONTACT_LINK_TYPES.includes(linkType) ? contactSchemeOf(url) : null;
  return scheme === "mailto" ? LINK_MESSAGES.emailLinkInvalid : scheme === "tel" ? LINK_MESSAGES.phoneLinkInvalid : scheme === "sms" ? LINK_MESSAGES.textLinkInvalid : LINK_MESSAGES.urlInvalid;
}

export const LinkInputSchema = z
  .object({
    linkType: z.enum(LINK_TYPES, "Please choose a link type"),
    // Required of every type but Social, whose title defaults to the platform's name.
    title: singleLine(LINK_MESSAGES.titleRequired).max(LIMITS.LINK_TITLE_MAX, LINK_MESSAGES.titleTooLong).optional().default(""),
    url: urlText(true),
    data: z
      .object({
        // The link dialog offers text areas for the text, the message and the description.
        text: lines(LIMITS.TEXT_LINK_TEXT_MAX),
        url: urlText(true),
        message: lines(LIMITS.DONATION_MESSAGE_MAX),
        description: lines(LIMITS.LEAD_DESCRIPTION_MAX),
        fileUrl: urlText(),
        name: line(LIMITS.VCF_FIELD_MAX),
        phone: line(LIMITS.VCF_FIELD_MAX),
        email: line(LIMITS.VCF_FIELD_MAX),
        organization: line(LIMITS.VCF_FIELD_MAX),
        // A link shown as a player (ADR 212): only "on" or "off".
        player: z.enum(["on", "off"], LINK_MESSAGES.playerSwitch).optional(),
        services: musicServicesInput.optional(),
        platform: z.enum(PLATFORM_IDS, LINK_MESSAGES.platformRequired).optional(),
        handle: z.string().max(2048, LINK_MESSAGES.tooLong).optional(),
        // Tip and Paid download (ADR 231): amounts in the currency's smallest unit.
        currency: CurrencySchema.optional(),
        amounts: SuggestedAmountsSchema.optional(),
        custom: z.enum(["on", "off"], LINK_MESSAGES.playerSwitch).optional(),
        min: AmountSchema.optional(),
        max: AmountSchema.optional(),
        price: AmountSchema.optional(),
        cover: urlText(),
        file: DownloadFileIdSchema.optional(),
      })
      .strip()
      .optional()
      .default({ text: "", url: "", message: "", description: "", fileUrl: "", name: "", phone: "", email: "", organization: "", cover: "" }),
  })
  .superRefine((v, ctx) => {
    const d = v.data;
    const need = (ok: boolean, path: (string | number)[], message: string) => {
      if (!ok) ctx.addIssue({ code: "custom", path, message });
    };
    const address = (path: string[], url: string) => {
      const problem = linkUrlProblem(v.linkType, url);
      need(!problem, path, problem ?? "");
    };
    if (v.linkType !== "social") need(v.title !== "", ["title"], LINK_MESSAGES.titleRequired);
    if (v.linkType === "music") {
      // The url is the first service's address; the list is required and checked on its own.
      need(d.services !== undefined, ["data", "services"], MUSIC_MESSAGES.servicesRequired);
      return;
    }
    if (v.linkType === "social") {
      const platform = d.platform ? getPlatform(d.platform) : undefined;
      if (!platform) return need(false, ["data", "platform"], LINK_MESSAGES.platformRequired);
      const handle = d.handle !== undefined && d.handle.length <= SOCIAL_HANDLE_MAX * 4 ? cleanHandle(platform, d.handle) : null;
      need(handle !== null, ["data", "handle"], platform.id === "whatsapp" ? DASH.whatsappInvalid : DASH.handleRequired);
      return;
    }
    if (v.linkType === "tip") {
      need(d.currency !== undefined, ["data", "currency"], PAYMENT_MESSAGES.currencyInvalid);
      const min = d.min ?? PAYMENTS.MIN_AMOUNT;
      const max = d.max ?? PAYMENTS.MAX_AMOUNT;
      need(min <= max, ["data", "min"], PAYMENT_MESSAGES.minAboveMax);
      const amounts = d.amounts ?? [];
      need(amounts.length > 0 || d.custom === "on", ["data", "amounts"], PAYMENT_MESSAGES.amountsRequired);
      need(amounts.every((a) => a >= min && a <= max), ["data", "amounts"], PAYMENT_MESSAGES.amountOutsideRange);
      return;
    }
    if (v.linkType === "paid_download") {
      need(d.currency !== undefined, ["data", "currency"], PAYMENT_MESSAGES.currencyInvalid);
      need(d.price !== undefined, ["data", "price"], PAYMENT_MESSAGES.priceRequired);
      need(d.file !== undefined, ["data", "file"], PAYMENT_MESSAGES.fileRequired);
      if (d.cover) need(isMediaPath(d.cover), ["data", "cover"], PAYMENT_MESSAGES.coverInvalid);
      return;
    }
    if (d.player === "on") need(v.linkType === "standard_url" && recognizeEmbed(v.url) !== null, ["data", "player"], LINK_MESSAGES.notPlayer);
    if (URL_REQUIRED_LINK_TYPES.includes(v.linkType)) {
      need(v.url !== "", ["url"], LINK_MESSAGES.urlRequired);
      if (v.url) address(["url"], v.url);
    } else if (v.url && v.url !== "#") {
      address(["url"], v.url);
    }
    if (v.linkType === "text_link") {
      // Its text links to its own url, else the main one; "#" would leave the text linking nowhere.
      need(d.url !== "" || (v.url !== "" && v.url !== "#"), ["data", "url"], LINK_MESSAGES.urlRequired);
      if (d.url) address(["data", "url"], d.url);
      need(d.text !== "", ["data", "text"], LINK_MESSAGES.linkTextRequired);
    }
    if (v.linkType === "lead_magnet") {
      need(d.description !== "", ["data", "description"], LINK_MESSAGES.descriptionRequired);
      if (d.fileUrl) need(isWebUrl(d.fileUrl) || isMediaPath(d.fileUrl), ["data", "fileUrl"], LINK_MESSAGES.urlInvalid);
    }
    if (v.linkType === "vcf") {
      need(d.name !== "", ["data", "name"], LINK_MESSAGES.fullNameRequired);
      if (d.email) need(z.email().safeParse(d.email).success, ["data", "email"], LINK_MESSAGES.emailInvalid);
    }
  })
  .transform((v) => {
    // Keep only the fields of the link's own type.
    const keys: Partial<Record<LinkType, readonly ("text" | "url" | "message" | "description" | "fileUrl" | "name" | "phone" | "email" | "organization")[]>> = {
      text_link: ["text", "url"],
      donation: ["message"],
      lead_magnet: ["description", "fileUrl"],
      vcf: ["name", "phone", "email", "organization"],
    };
    const data: Record<string, string> = {};
    for (const k of keys[v.linkType] ?? []) if (v.data[k]) data[k] = v.data[k];
    if (v.linkType === "standard_url" && v.data.player) data.player = v.data.player;
    if (v.linkType === "tip") {
      const d = v.data;
      data.currency = d.currency!;
      data.amounts = (d.amounts ?? []).join(",");
      data.custom = d.custom === "on" ? "on" : "off";
      data.min = String(d.min ?? PAYMENTS.MIN_AMOUNT);
      data.max = String(d.max ?? PAYMENTS.MAX_AMOUNT);
      // The thank-you message, shown after the payment.
      if (d.message) data.message = d.message;
      return { linkType: v.linkType, title: v.title, url: "#", data };
    }
    if (v.linkType === "paid_download") {
      const d = v.data;
      data.currency = d.currency!;
      data.price = String(d.price!);
      data.file = d.file!;
      if (d.description) data.description = d.description;
      if (d.cover) data.cover = d.cover;
      // The thank-you message, shown after the payment.
      if (d.message) data.message = d.message;
      return { linkType: v.linkType, title: v.title, url: "#", data };
    }
    if (v.linkType === "music") {
      const services: MusicServiceLink[] = v.data.services!;
      data.services = musicServicesData(services);
      return { linkType: v.linkType, title: v.title, url: services[0]!.url, data };
    }
    if (v.linkType === "social") {
      const platform = getPlatform(v.data.platform!)!;
      const handle = cleanHandle(platform, v.data.handle!)!;
      data.platform = platform.id;
      data.handle = handle;
      return { linkType: v.linkType, title: v.title || platform.name, url: platform.baseUrl + handle, data };
    }
    return { linkType: v.linkType, title: v.title, url: v.url, data };
  });
export type LinkInput = z.output<typeof LinkInputSchema>;

/** The url stored for a link (docs/product.md section 5). */
export function storedUrlFor(input: LinkInput, referralUrl: string): string {
  if (HASH_URL_LINK_TYPES.includes(input.linkType)) return "#";
  if (input.linkType === PROMOTE_LINK_TYPE) return referralUrl;
  if (input.linkType === "text_link") return input.data.url || input.url;
  if (input.linkType === "lead_magnet") return input.url || "#";
  return input.url;
}
