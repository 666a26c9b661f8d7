/**
 * How a PageSnapshot is stored in page_versions: JSON, with each profile, link, list and social
 * link as an array of its values in a fixed order instead of an object, behind a format number:
 * `[1, profile, links, lists, socialLinks]`. Half the text of the object form, and half the time
 * to parse: a republish reads and parses every published snapshot, and the field names were two
 * thirds of each one (ADR 090).
 *
 * Decoding gives the snapshot's plain object form, unchecked: callers check it with
 * PageSnapshotSchema as before. Text in the object form (versions stored before this format) decodes
 * to itself. The field lists of format 1 are frozen: a field added to the model needs format 2, and
 * a test fails until the lists below name every field of the schema.
 */
import type { LinkSpecificData, PageLink, PageLinkList, PageProfile, PageSnapshot, PageSocialLink } from "./model.ts";

/** The format this module writes and reads; versions stored before it are objects. */
const FORMAT_1 = 1;

/** Format 1's field order, as written. Only the decoders below read by position. */
export const FORMAT_1_FIELDS = {
  profile: [
    "username",
    "displayName",
    "bio",
    "seoTitle",
    "seoDescription",
    "longFormText",
    "profilePictureUrl",
    "profilePictureStyle",
    "profilePictureIconSubtype",
    "profilePictureFullwidthSubtype",
    "initialsText",
    "initialsBgColor",
    "selectedThemeName",
    "customPageBackgroundColor",
    "customButtonBackgroundColor",
    "customButtonBorderColor",
    "buttonShapeStyle",
    "socialLinksPosition",
    "customFontPairingName",
    "hidePlatformBranding",
    "removeBranding",
    "qrCodeVisible",
    "referralId",
  ],
  link: ["id", "title", "url", "linkType", "data", "isMainButton", "isActive", "orderIndex", "thumbnailUrl", "scheduleStartTime", "scheduleEndTime", "parentListId"],
  list: ["id", "title", "orderIndex"],
  socialLink: ["id", "platform", "url", "displayOrder", "isVisible"],
} as const satisfies {
  profile: readonly (keyof PageProfile)[];
  link: readonly (keyof PageLink)[];
  list: readonly (keyof PageLinkList)[];
  socialLink: readonly (keyof PageSocialLink)[];
};

type Row = readonly unknown[];

function valuesOf<K extends string>(fields: readonly K[], o: Record<K, unknown>): unknown[] {
  const row: unknown[] = [];
  for (const f of fields) row.push(o[f]);
  return row;
}

function rowsOf<K extends string>(fields: readonly K[], items: readonly Record<K, unknown>[]): unknown[][] {
  const rows: unknown[][] = [];
  for (const item of items) rows.push(valuesOf(fields, item));
  return rows;
}

/** The stored text of a snapshot. */
export function encodeSnapshot(s: PageSnapshot): string {
  const f = FORMAT_1_FIELDS;
  return JSON.stringify([
    FORMAT_1,
    valuesOf(f.profile, s.profile),
    rowsOf(f.link, s.links),
    rowsOf(f.list, s.lists),
    rowsOf(f.socialLink, s.socialLinks),
  ]);
}

// Object literals, not a loop over the field lists: every decoded object gets one hidden class at
// once, as JSON.parse gives objects of the same keys (the renderer's compiled code relies on it).
const profileOf = (a: Row) => ({
  username: a[0],
  displayName: a[1],
  bio: a[2],
  seoTitle: a[3],
  seoDescription: a[4],
  longFormText: a[5],
  profilePictureUrl: a[6],
  profilePictureStyle: a[7],
  profilePictureIconSubtype: a[8],
  profilePictureFullwidthSubtype: a[9],
  initialsText: a[10],
  initialsBgColor: a[11],
  selectedThemeName: a[12],
  customPageBackgroundColor: a[13],
  customButtonBackgroundColor: a[14],
  customButtonBorderColor: a[15],
  buttonShapeStyle: a[16],
  socialLinksPosition: a[17],
  customFontPairingName: a[18],
  hidePlatformBranding: a[19],
  removeBranding: a[20],
  qrCodeVisible: a[21],
  referralId: a[22],
});
const linkOf = (a: Row) => ({
  id: a[0],
  title: a[1],
  url: a[2],
  linkType: a[3],
  data: a[4] as LinkSpecificData,
  isMainButton: a[5],
  isActive: a[6],
  orderIndex: a[7],
  thumbnailUrl: a[8],
  scheduleStartTime: a[9],
  scheduleEndTime: a[10],
  parentListId: a[11],
});
const listOf = (a: Row) => ({ id: a[0], title: a[1], orderIndex: a[2] });
const socialLinkOf = (a: Row) => ({ id: a[0], platform: a[1], url: a[2], displayOrder: a[3], isVisible: a[4] });

/** Rows that are not arrays stay as they are, for the schema check to refuse. */
function objectsOf(rows: unknown, of: (a: Row) => object): unknown {
  if (!Array.isArray(rows)) return rows;
  const out: unknown[] = [];
  for (const r of rows) out.push(Array.isArray(r) ? of(r) : r);
  return out;
}

/**
 * A stored snapshot's plain object form, for PageSnapshotSchema to check. Throws a SyntaxError on
 * text that is not JSON; a format this code does not know decodes to a value the schema refuses.
 */
export function decodeSnapshot(text: string): unknown {
  const v: unknown = JSON.parse(text);
  if (!Array.isArray(v)) return v;
  if (v[0] !== FORMAT_1 || v.length !== 5) return { format: v[0] };
  return {
    profile: Array.isArray(v[1]) ? profileOf(v[1]) : v[1],
    links: objectsOf(v[2], linkOf),
    lists: objectsOf(v[3], listOf),
    socialLinks: objectsOf(v[4], socialLinkOf),
  };
}
