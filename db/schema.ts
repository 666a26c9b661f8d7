/**
 * The data model (docs/product.md section 3, plus what a real product needs). Conventions:
 * - ids are random text ids made by the API (newId in db/ids.ts);
 * - times are integer milliseconds since the epoch (drizzle mode timestamp_ms gives Dates);
 * - money is integer cents;
 * - every row of an owner cascades on the user's deletion, except invoices, which are records (ADR 049);
 * - enum columns carry a CHECK built from the same lists core/ validates with.
 */
import { sql, type SQL } from "drizzle-orm";
import { type AnySQLiteColumn, check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { LINK_TYPES } from "#core/link-types.ts";
import { REPORT_REASONS } from "#core/limits.ts";
import { PLAN_TYPES, SUBSCRIPTION_STATUSES } from "#core/plans.ts";
import { PLATFORM_IDS } from "#core/platforms.ts";
import { BUTTON_STYLES, FONT_PAIRING_IDS, FULLWIDTH_SUBTYPES, ICON_SUBTYPES, PICTURE_STYLES, SOCIAL_POSITIONS, THEME_IDS } from "#core/themes.ts";

/** `column IN ('a','b',…)` for a CHECK constraint; values come from core's constant lists only. */
function oneOf(column: AnySQLiteColumn, values: readonly string[]): SQL {
  const list = values.map((v) => `'${v.replaceAll("'", "''")}'`).join(", ");
  return sql`${column} IN (${sql.raw(list)})`;
}

const bool = (name: string) => integer(name, { mode: "boolean" });
const time = (name: string) => integer(name, { mode: "timestamp_ms" });
const createdAt = () => time("created_at").notNull().default(sql`(unixepoch('subsec') * 1000)`);
/** The owner's draft revision of a row's or a section's last write (ADR 068); rows from before start at 0. */
const revision = (name: string) => integer(name).notNull().default(0);

// ---------------------------------------------------------------------------------------------
// Accounts

export const USER_ROLES = ["owner", "admin"] as const;

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    /** Stored lowercased and trimmed; unique. */
    email: text("email").notNull(),
    /** argon2id; null for an account that only signs in with an outside provider. */
    passwordHash: text("password_hash"),
    emailVerified: bool("email_verified").notNull().default(false),
    /** OpenID Connect subject of a linked Google account. */
    googleSub: text("google_sub"),
    /** "admin" opens the operator's console (ADR 105); granted only from the shell. */
    role: text("role", { enum: USER_ROLES }).notNull().default("owner"),
    /** When the newest session was made (every sign-in makes one); shown in the operator's console. */
    lastSignInAt: time("last_sign_in_at"),
    /** Set while the operator's console keeps the account suspended (ADR 109): no sign-in, page suspended. */
    suspendedAt: time("suspended_at"),
    suspensionReason: text("suspension_reason").notNull().default(""),
    createdAt: createdAt(),
    updatedAt: time("updated_at").notNull().default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(t.email),
    uniqueIndex("users_google_sub_unique").on(t.googleSub),
    check("users_email_lowercase", sql`${t.email} = lower(${t.email})`),
    check("users_role", oneOf(t.role, USER_ROLES)),
  ],
);

/**
 * Lucia-style sessions. The browser holds "{id}.{secret}"; the row keeps the id (to look it up) and
 * only the SHA-256 of the secret, compared in constant time.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    secretHash: text("secret_hash").notNull(),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    expiresAt: time("expires_at").notNull(),
    /** Remember me: off means the cookie ends with the browser session. */
    persistent: bool("persistent").notNull().default(true),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    lastSeenAt: time("last_seen_at"),
    /** This sign-in passed the second factor (a code at sign-in, or the code that turned it on): the console requires it (ADR 105). */
    secondFactor: bool("second_factor").notNull().default(false),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/**
 * A signup in progress. It holds its username so two people cannot claim the same one; the account
 * itself is created only when every wizard step has passed.
 */
export const signupAttempts = sqliteTable(
  "signup_attempts",
  {
    id: text("id").primaryKey(),
    /** SHA-256 of the token the browser holds for this attempt. */
    tokenHash: text("token_hash").notNull(),
    /** Null only while a Google signup has not picked its username yet. */
    username: text("username"),
    email: text("email"),
    emailVerifiedAt: time("email_verified_at"),
    /** Set when the attempt began with an outside provider (e-mail already verified by it). */
    googleSub: text("google_sub"),
    expiresAt: time("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("signup_attempts_username_unique").on(t.username),
    uniqueIndex("signup_attempts_token_unique").on(t.tokenHash),
    check("signup_attempts_username_lowercase", sql`${t.username} = lower(${t.username})`),
  ],
);

export const EMAIL_CODE_PURPOSES = ["signup", "verify_email"] as const;

/** Six-digit e-mail codes, stored hashed; a code dies after 10 minutes or 5 wrong tries. */
export const emailVerificationCodes = sqliteTable(
  "email_verification_codes",
  {
    id: text("id").primaryKey(),
    purpose: text("purpose", { enum: EMAIL_CODE_PURPOSES }).notNull(),
    email: text("email").notNull(),
    signupAttemptId: text("signup_attempt_id").references(() => signupAttempts.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: time("expires_at").notNull(),
    sentAt: time("sent_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("email_codes_email_idx").on(t.email),
    check("email_codes_purpose", oneOf(t.purpose, EMAIL_CODE_PURPOSES)),
    check("email_codes_owner", sql`${t.signupAttemptId} IS NOT NULL OR ${t.userId} IS NOT NULL`),
  ],
);

/** Single-use password-reset links; the id is the SHA-256 of the token. */
export const passwordResetTokens = sqliteTable(
  "password_reset_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    expiresAt: time("expires_at").notNull(),
    usedAt: time("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("password_reset_user_idx").on(t.userId)],
);

export const THROTTLE_ACTIONS = ["sign_in", "sign_up", "reset", "two_factor"] as const;

/** Failed attempts per action and e-mail (docs/product.md section 9: 5 failures, 15 minutes from the last). */
export const authThrottle = sqliteTable(
  "auth_throttle",
  {
    action: text("action", { enum: THROTTLE_ACTIONS }).notNull(),
    subject: text("subject").notNull(),
    failures: integer("failures").notNull().default(0),
    lastAttemptAt: time("last_attempt_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.action, t.subject] }), check("auth_throttle_action", oneOf(t.action, THROTTLE_ACTIONS))],
);

/**
 * A sign-in waiting for its second factor: the password was right and two-factor is on. The browser
 * holds a token; the id is its SHA-256. Dies after 10 minutes or when the code is accepted.
 */
export const twoFactorChallenges = sqliteTable(
  "two_factor_challenges",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    /** Remember me, carried to the session the challenge turns into. */
    persistent: bool("persistent").notNull().default(false),
    expiresAt: time("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("two_factor_challenges_user_idx").on(t.userId)],
);

/**
 * Keys the server makes for itself once and keeps across restarts (ADR 048), e.g. the one that
 * signs the Google sign-in flow cookie. Random, never shown, never configured.
 */
export const serverSecrets = sqliteTable("server_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: createdAt(),
});

export const user2faSettings = sqliteTable("user_2fa_settings", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** Base32 TOTP secret. Generated by the server; enabled only after a valid code. */
  secretKey: text("secret_key"),
  isEnabled: bool("is_enabled").notNull().default(false),
  /** JSON array of SHA-256 hashes of the unused backup codes. */
  backupCodes: text("backup_codes", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
  /** The last TOTP time step accepted, so a code is never accepted twice. */
  lastUsedStep: integer("last_used_step"),
  updatedAt: time("updated_at").notNull().default(sql`(unixepoch('subsec') * 1000)`),
});

// ---------------------------------------------------------------------------------------------
// The page

/** user_profiles.plus_items_state (ADR 136). */
export const PLUS_ITEMS_STATES = ["none", "hidden", "back"] as const;

export const userProfiles = sqliteTable(
  "user_profiles",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Stored lowercased; unique. The public page lives at /{username}. */
    username: text("username").notNull(),
    displayName: text("display_name").notNull().default(""),
    bio: text("bio").notNull().default(""),
    seoTitle: text("seo_title").notNull().default(""),
    seoDescription: text("seo_description").notNull().default(""),
    longFormText: text("long_form_text").notNull().default(""),
    /** The long-form text's own switch (ADR 136): off keeps the text and leaves it off the page. */
    longFormTextVisible: bool("long_form_text_visible").notNull().default(true),

    planType: text("plan_type", { enum: PLAN_TYPES }).notNull().default("lite"),
    subscriptionStatus: text("subscription_status", { enum: SUBSCRIPTION_STATUSES }),
    currentPeriodEndDate: time("current_period_end_date"),
    /** The trial is active while now is before this time (is_trial_active is derived, never stored). */
    trialEndsAt: time("trial_ends_at"),
    /** When the first paying period began; payouts need 3 continuous paying months. */
    payingSince: time("paying_since"),

    hasPublishedPage: bool("has_published_page").notNull().default(false),
    lastPublishedAt: time("last_published_at"),
    pageVisibility: bool("page_visibility").notNull().default(true),
    /**
     * The Plus items the live page shows (ADR 136): "hidden" while its last render hid some because
     * the plan is Lite; "back" once a render under Plus shows them again, until the dashboard has told
     * the owner ("Your Plus items are back on your page"); "none" otherwise.
     */
    plusItemsState: text("plus_items_state", { enum: PLUS_ITEMS_STATES }).notNull().default("none"),
    /** Set while the page is suspended (ADR 108): the public URL answers 410, nothing re-renders it. */
    pageSuspendedAt: time("page_suspended_at"),
    /** Why, as the owner reads it. */
    pageSuspensionReason: text("page_suspension_reason").notNull().default(""),

    rewardsBalanceCents: integer("rewards_balance_cents").notNull().default(0),
    referralId: text("referral_id").notNull(),
    referredBy: text("referred_by").references((): AnySQLiteColumn => users.id, { onDelete: "set null" }),

    selectedThemeName: text("selected_theme_name", { enum: THEME_IDS }).notNull().default("minimalist-light"),
    customPageBackgroundColor: text("custom_page_background_color"),
    customButtonBackgroundColor: text("custom_button_background_color"),
    customButtonBorderColor: text("custom_button_border_color"),
    buttonShapeStyle: text("button_shape_style", { enum: BUTTON_STYLES }).notNull().default("rounded"),
    socialLinksPosition: text("social_links_position", { enum: SOCIAL_POSITIONS }).notNull().default("top"),
    customFontPairingName: text("custom_font_pairing_name", { enum: FONT_PAIRING_IDS }),
    hidePlatformBranding: bool("hide_platform_branding").notNull().default(false),
    removeBranding: bool("remove_branding").notNull().default(false),
    /** docs/product.md section 10: the QR entry's visibility is stored on the profile so the published page honours it. */
    qrCodeVisible: bool("qr_code_visible").notNull().default(true),

    /** The icon layout's square crop. */
    profilePictureUrl: text("profile_picture_url"),
    /** The full-width layout's own crop, at the aspect of profilePictureFullwidthSubtype. */
    profilePictureFullwidthUrl: text("profile_picture_fullwidth_url"),
    profilePictureStyle: text("profile_picture_style", { enum: PICTURE_STYLES }).notNull().default("icon"),
    profilePictureIconSubtype: text("profile_picture_icon_subtype", { enum: ICON_SUBTYPES }).notNull().default("rounded"),
    profilePictureFullwidthSubtype: text("profile_picture_fullwidth_subtype", { enum: FULLWIDTH_SUBTYPES })
      .notNull()
      .default("portrait"),
    initialsText: text("initials_text").notNull().default(""),
    initialsBgColor: text("initials_bg_color").notNull().default("#6366f1"),

    /**
     * ADR 068: a counter each write to the owner's draft moves on by one; the write stamps what it
     * changed with the new value, and a write based on an older value is refused (409).
     */
    draftRevision: revision("draft_revision"),
    /** Bio & SEO: display name, bio, SEO title and description, long-form text. */
    textRevision: revision("text_revision"),
    /** Profile Picture: the picture, its style, shape, height and initials. */
    pictureRevision: revision("picture_revision"),
    /** Theme: theme, colours, button style, social position, fonts, branding. */
    appearanceRevision: revision("appearance_revision"),
    /** Which links and lists the page has, in which order and grouping. */
    linksOrderRevision: revision("links_order_revision"),
    /** Which social links the page has, in which order, and the QR entry's visibility. */
    socialOrderRevision: revision("social_order_revision"),

    createdAt: createdAt(),
    /** Last edit of the draft profile. */
    updatedAt: time("updated_at").notNull().default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [
    uniqueIndex("user_profiles_username_unique").on(t.username),
    uniqueIndex("user_profiles_referral_unique").on(t.referralId),
    check("user_profiles_username_lowercase", sql`${t.username} = lower(${t.username})`),
    check("user_profiles_plan_type", oneOf(t.planType, PLAN_TYPES)),
    check("user_profiles_subscription_status", sql`${t.subscriptionStatus} IS NULL OR ${oneOf(t.subscriptionStatus, SUBSCRIPTION_STATUSES)}`),
    check("user_profiles_theme", oneOf(t.selectedThemeName, THEME_IDS)),
    check("user_profiles_button_shape", oneOf(t.buttonShapeStyle, BUTTON_STYLES)),
    check("user_profiles_social_position", oneOf(t.socialLinksPosition, SOCIAL_POSITIONS)),
    check("user_profiles_font", sql`${t.customFontPairingName} IS NULL OR ${oneOf(t.customFontPairingName, FONT_PAIRING_IDS)}`),
    check("user_profiles_picture_style", oneOf(t.profilePictureStyle, PICTURE_STYLES)),
    check("user_profiles_icon_subtype", oneOf(t.profilePictureIconSubtype, ICON_SUBTYPES)),
    check("user_profiles_fullwidth_subtype", oneOf(t.profilePictureFullwidthSubtype, FULLWIDTH_SUBTYPES)),
    check("user_profiles_balance", sql`${t.rewardsBalanceCents} >= 0`),
  ],
);

export const linkLists = sqliteTable(
  "link_lists",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    orderIndex: integer("order_index").notNull().default(0),
    revision: revision("revision"),
    createdAt: createdAt(),
    updatedAt: time("updated_at").notNull().default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [index("link_lists_user_idx").on(t.userId, t.orderIndex)],
);

export const links = sqliteTable(
  "links",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    url: text("url").notNull(),
    linkType: text("link_type", { enum: LINK_TYPES }).notNull().default("standard_url"),
    linkSpecificData: text("link_specific_data", { mode: "json" }).$type<Record<string, string>>().notNull().default(sql`'{}'`),
    isMainButton: bool("is_main_button").notNull().default(false),
    isMainLink: bool("is_main_link").notNull().default(false),
    isActive: bool("is_active").notNull().default(true),
    orderIndex: integer("order_index").notNull().default(0),
    thumbnailUrl: text("thumbnail_url"),
    scheduleStartTime: time("schedule_start_time"),
    scheduleEndTime: time("schedule_end_time"),
    parentListId: text("parent_list_id").references(() => linkLists.id, { onDelete: "set null" }),
    /** Every change but its position (order_index), which is the owner's links order revision. */
    revision: revision("revision"),
    createdAt: createdAt(),
    updatedAt: time("updated_at").notNull().default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [
    index("links_user_idx").on(t.userId, t.orderIndex),
    check("links_type", oneOf(t.linkType, LINK_TYPES)),
    check(
      "links_schedule_order",
      sql`${t.scheduleStartTime} IS NULL OR ${t.scheduleEndTime} IS NULL OR ${t.scheduleEndTime} > ${t.scheduleStartTime}`,
    ),
  ],
);

export const socialLinks = sqliteTable(
  "social_links",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    platform: text("platform", { enum: PLATFORM_IDS }).notNull(),
    url: text("url").notNull(),
    displayOrder: integer("display_order").notNull().default(1),
    isVisible: bool("is_visible").notNull().default(true),
    /** Every change but its position (display_order), which is the owner's social order revision. */
    revision: revision("revision"),
    createdAt: createdAt(),
    updatedAt: time("updated_at").notNull().default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [
    uniqueIndex("social_links_user_platform_unique").on(t.userId, t.platform),
    check("social_links_platform", oneOf(t.platform, PLATFORM_IDS)),
  ],
);

/** The snapshot of every published version: discard and rollback restore from here exactly. */
export const pageVersions = sqliteTable(
  "page_versions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    /** PageSnapshot (core/model.ts) as JSON, unchecked here: readers check it with PageSnapshotSchema (ADR 097). */
    snapshot: text("snapshot", { mode: "json" }).$type<unknown>().notNull(),
    /** SHA-256 of the canonical snapshot JSON: a publish of an unchanged draft is a no-op. */
    contentHash: text("content_hash").notNull(),
    /** The HTML file this version was written to (relative to PUBLISHED_DIR). */
    htmlFile: text("html_file").notNull(),
    /** The template fingerprint the page was last rendered with, for the latest version (ADR 097); null when unknown. */
    templateFingerprint: text("template_fingerprint"),
    publishedAt: time("published_at").notNull(),
    /**
     * PagePlan (core/model.ts) the version was published under, so History previews it as it was
     * published (ADR 137); null for versions published before it was kept.
     */
    plan: text("plan", { mode: "json" }).$type<unknown>(),
    /**
     * The features the owner agreed the plan hides, when the version was published with "Hide Plus
     * items and publish" (ADR 136): their consent for that publish. Null for an ordinary publish.
     */
    hiddenByPlan: text("hidden_by_plan", { mode: "json" }).$type<string[]>(),
    /**
     * The items the plan hid that a render under Plus keeps as the Lite page showed them, because the
     * owner removed or changed them in the draft meanwhile (ADR 259): PlanItemKey[] (core/plan-hides.ts)
     * as JSON, applied wherever the version is shown until the next publish makes a new version. Null
     * when nothing is withheld.
     */
    withheldItems: text("withheld_items", { mode: "json" }).$type<unknown>(),
  },
  (t) => [uniqueIndex("page_versions_user_version_unique").on(t.userId, t.version)],
);

/** Uploaded files (pictures, lead-magnet files, thumbnails) and who owns them. */
export const UPLOAD_KINDS = ["profile_picture", "thumbnail", "lead_magnet"] as const;
export const uploads = sqliteTable(
  "uploads",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: UPLOAD_KINDS }).notNull(),
    /** Storage key, e.g. "media/ab/abcdef….jpg". */
    storageKey: text("storage_key").notNull(),
    contentType: text("content_type").notNull(),
    bytes: integer("bytes").notNull(),
    /**
     * The name the file had on the owner's device, cleaned (core/link-files.ts cleanFileName), to
     * name it back to the owner (analytics: "Lead Magnet: guide.pdf"). Never a path: the file lives
     * under storageKey. Null for uploads made before it was kept.
     */
    originalName: text("original_name"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("uploads_key_unique").on(t.storageKey), check("uploads_kind", oneOf(t.kind, UPLOAD_KINDS))],
);

// ---------------------------------------------------------------------------------------------
// Visitors

export const ANALYTICS_KINDS = ["page_view", "link_click"] as const;
export const DEVICE_CLASSES = ["mobile", "tablet", "desktop", "bot", "other"] as const;

/** Page views and link clicks. No cookie, no IP address: only the referrer's domain and a device class. */
export const analyticsEvents = sqliteTable(
  "analytics_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ANALYTICS_KINDS }).notNull(),
    /** Kept without a foreign key so a deleted link's history still counts. */
    linkId: text("link_id"),
    occurredAt: time("occurred_at").notNull(),
    referrerDomain: text("referrer_domain"),
    device: text("device", { enum: DEVICE_CLASSES }).notNull().default("other"),
    /** ISO 3166 two-letter code from the visitor's address (never the address itself). */
    country: text("country"),
    /** The page URL's utm_source, utm_medium and utm_campaign, capped and cleaned. */
    utmSource: text("utm_source"),
    utmMedium: text("utm_medium"),
    utmCampaign: text("utm_campaign"),
  },
  (t) => [
    index("analytics_user_time_idx").on(t.userId, t.occurredAt),
    check("analytics_kind", oneOf(t.kind, ANALYTICS_KINDS)),
    check("analytics_device", oneOf(t.device, DEVICE_CLASSES)),
    check("analytics_click_has_link", sql`${t.kind} = 'page_view' OR ${t.linkId} IS NOT NULL`),
  ],
);

export const ROLLUP_DIMENSIONS = ["page", "link", "referrer", "device", "country", "campaign"] as const;
export const ROLLUP_GRAINS = ["day", "quarter"] as const;

/**
 * Counted (never bot) views and clicks, summed per owner, dimension and key (a link id, a referrer
 * site, a device class, ...; "" for the page itself) in UTC days and in UTC quarter hours (ADR 071).
 * Written in the same transaction as the raw events; reports read only these.
 */
export const analyticsRollups = sqliteTable(
  "analytics_rollups",
  {
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    dimension: text("dimension", { enum: ROLLUP_DIMENSIONS }).notNull(),
    grain: text("grain", { enum: ROLLUP_GRAINS }).notNull(),
    /** Days or quarter hours since 1970-01-01T00:00Z. */
    bucket: integer("bucket").notNull(),
    key: text("key").notNull(),
    views: integer("views").notNull().default(0),
    clicks: integer("clicks").notNull().default(0),
    /** Views that were a visitor's first of the UTC day on this page (ADR 073). */
    visitors: integer("visitors").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.dimension, t.grain, t.bucket, t.key] }),
    check("analytics_rollups_dimension", oneOf(t.dimension, ROLLUP_DIMENSIONS)),
    check("analytics_rollups_grain", oneOf(t.grain, ROLLUP_GRAINS)),
  ],
);

/**
 * The day's secret for visitor hashes (ADR 073): one per UTC day, deleted with that day's hashes
 * when the day ends, so hashes of different days cannot be linked.
 */
export const analyticsSalts = sqliteTable("analytics_salts", {
  /** Days since 1970-01-01 (UTC). */
  day: integer("day").primaryKey(),
  salt: text("salt").notNull(),
});

/** Visitors seen today: SHA-256 of the day's salt, address, user agent and page. */
export const analyticsVisitors = sqliteTable(
  "analytics_visitors",
  {
    day: integer("day").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.hash] })],
);

export const collectedLeads = sqliteTable(
  "collected_leads",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    linkId: text("link_id").references(() => links.id, { onDelete: "set null" }),
    /** The link's title when the lead came in, so the lead keeps its context after an edit. */
    linkTitle: text("link_title").notNull(),
    email: text("email").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("collected_leads_user_idx").on(t.userId, t.createdAt)],
);

/**
 * Lead e-mails sent in the last day, for the daily caps per page and per recipient (ADR 092). Rows
 * older than a day are deleted as new ones come in. No foreign key: a deleted account's sends still
 * count against their recipients for the rest of the day.
 */
export const leadMailSends = sqliteTable(
  "lead_mail_sends",
  {
    id: text("id").primaryKey(),
    pageUserId: text("page_user_id").notNull(),
    /** SHA-256 of the recipient address as the cap counts it (lowercase, without a +tag). */
    recipientHash: text("recipient_hash").notNull(),
    sentAt: time("sent_at").notNull(),
  },
  (t) => [index("lead_mail_sends_page_idx").on(t.pageUserId, t.sentAt), index("lead_mail_sends_recipient_idx").on(t.recipientHash, t.sentAt)],
);

export const pageReports = sqliteTable(
  "page_reports",
  {
    id: text("id").primaryKey(),
    reportedUserId: text("reported_user_id").references(() => users.id, { onDelete: "cascade" }),
    reportedPageUsername: text("reported_page_username").notNull(),
    reason: text("reason", { enum: REPORT_REASONS }).notNull(),
    details: text("details").notNull().default(""),
    /**
     * HMAC of the reporter's address with a server secret (ADR 108): the same person's reports share
     * it across restarts; never the address itself.
     */
    reporterIpHash: text("reporter_ip_hash"),
    /** The published version the page's first open report saw; kept from pruning while the report is. */
    pinnedVersion: integer("pinned_version"),
    /** When an admin dismissed it; null while it is in the queue. */
    dismissedAt: time("dismissed_at"),
    createdAt: createdAt(),
  },
  (t) => [check("page_reports_reason", oneOf(t.reason, REPORT_REASONS)), index("page_reports_user_idx").on(t.reportedUserId)],
);

export const contactMessages = sqliteTable("contact_messages", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull(),
  message: text("message").notNull(),
  createdAt: createdAt(),
});

// ---------------------------------------------------------------------------------------------
// Plans, billing and affiliate

export const upgradeRequests = sqliteTable(
  "upgrade_requests",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    featureKey: text("feature_key").notNull(),
    reason: text("reason"),
    createdAt: createdAt(),
  },
  (t) => [index("upgrade_requests_user_idx").on(t.userId)],
);

export const PAYOUT_STATUSES = ["pending", "processing", "completed", "failed", "rejected"] as const;

export const payoutRequests = sqliteTable(
  "payout_requests",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    requestedAmountCents: integer("requested_amount_cents").notNull(),
    processingFeeCents: integer("processing_fee_cents").notNull(),
    netAmountCents: integer("net_amount_cents").notNull(),
    payoutEmail: text("payout_email").notNull(),
    payoutMethod: text("payout_method", { enum: ["paypal"] }).notNull().default("paypal"),
    status: text("status", { enum: PAYOUT_STATUSES }).notNull().default("pending"),
    /** The dialog's random key: a double submit finds the first request instead of making a second. */
    requestKey: text("request_key"),
    /** The owner's payout eligibility when they asked (JSON), for the admin who pays it; null before 0013. */
    eligibilityAtRequest: text("eligibility_at_request"),
    /** Set once, by the admin who decides (ADR 106): the payment's reference, or why it was rejected. */
    paymentReference: text("payment_reference"),
    rejectionReason: text("rejection_reason"),
    decidedAt: time("decided_at"),
    decidedBy: text("decided_by"),
    createdAt: createdAt(),
  },
  (t) => [
    index("payout_requests_user_idx").on(t.userId, t.createdAt),
    index("payout_requests_status_idx").on(t.status, t.createdAt),
    uniqueIndex("payout_requests_request_key_unique").on(t.userId, t.requestKey),
    check("payout_requests_method", oneOf(t.payoutMethod, ["paypal"])),
    check("payout_requests_status", oneOf(t.status, PAYOUT_STATUSES)),
    check("payout_requests_amounts", sql`${t.netAmountCents} = ${t.requestedAmountCents} - ${t.processingFeeCents} AND ${t.netAmountCents} > 0`),
  ],
);

export const INVOICE_STATUSES = ["paid", "open", "void", "uncollectible"] as const;

/**
 * Invoices as the billing provider reports them (docs/product.md section 10: real billing history). Receipts are
 * records (ADR 082): when the account is deleted, its invoices stay, detached from it (user_id null),
 * with the buyer's details copied onto them first (ADR 049).
 */
export const invoices = sqliteTable(
  "invoices",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    amountCents: integer("amount_cents").notNull(),
    status: text("status", { enum: INVOICE_STATUSES }).notNull(),
    description: text("description").notNull(),
    invoiceUrl: text("invoice_url"),
    /** The invoice number printed on it, PLN-000001 onwards: one gap-free sequence (invoiceSequence, ADR 103). */
    number: text("number"),
    subscriptionId: text("subscription_id"),
    periodStart: time("period_start"),
    periodEnd: time("period_end"),
    paidAt: time("paid_at"),
    /** How it was paid, as printed: "Visa ending in 4242", or "Rewards balance". */
    paymentMethod: text("payment_method"),
    /** Who was billed, kept once the account is gone (null while it exists: the account says). */
    billedEmail: text("billed_email"),
    billedUsername: text("billed_username"),
    billedName: text("billed_name"),
    /**
     * The seller and the tax as they were when the invoice was issued (ADR 103): an issued invoice
     * does not change when the operator's configuration does. Null on invoices from before they
     * were kept; those print the configuration of the day. amount_cents is the gross, tax included.
     */
    sellerName: text("seller_name"),
    /** The address lines joined with LF. */
    sellerAddress: text("seller_address"),
    sellerTaxId: text("seller_tax_id"),
    /** The tax rate included in amount_cents, in hundredths of a percent (2000 is 20%); net and tax follow from it (core/invoice.ts). */
    taxRateBp: integer("tax_rate_bp"),
    createdAt: createdAt(),
  },
  (t) => [
    index("invoices_user_idx").on(t.userId, t.createdAt),
    uniqueIndex("invoices_number_unique").on(t.number),
    check("invoices_status", oneOf(t.status, INVOICE_STATUSES)),
  ],
);

/**
 * The last invoice number given (one row). It is raised in the same IMMEDIATE transaction that
 * writes the invoice, so numbers are never skipped or given twice, whatever runs at once (ADR 103).
 */
export const invoiceSequence = sqliteTable(
  "invoice_sequence",
  {
    id: integer("id").primaryKey(),
    last: integer("last").notNull(),
  },
  (t) => [check("invoice_sequence_one_row", sql`${t.id} = 1`), check("invoice_sequence_last", sql`${t.last} >= 0`)],
);

/** Commission earned from a referred owner's payment (20%). */
export const referralEarnings = sqliteTable(
  "referral_earnings",
  {
    id: text("id").primaryKey(),
    referrerId: text("referrer_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    referredUserId: text("referred_user_id").references(() => users.id, { onDelete: "set null" }),
    invoiceId: text("invoice_id").references(() => invoices.id, { onDelete: "set null" }),
    billingPeriod: text("billing_period", { enum: ["monthly", "annual"] }).notNull().default("monthly"),
    paymentCents: integer("payment_cents").notNull(),
    commissionCents: integer("commission_cents").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("referral_earnings_referrer_idx").on(t.referrerId, t.createdAt),
    // One commission per paid invoice, however often the payment event arrives.
    uniqueIndex("referral_earnings_invoice_unique").on(t.invoiceId),
  ],
);

/** The owner's customer and current subscription at the billing provider. */
export const billingCustomers = sqliteTable(
  "billing_customers",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    customerId: text("customer_id").notNull(),
    subscriptionId: text("subscription_id"),
    /** The card on file as the provider last reported it (brand and last four digits only). */
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    /** The newest subscription event applied: an older one arriving late is ignored. */
    lastEventAt: time("last_event_at"),
    /** How the subscription is billed ("month" or "year"), as the provider last reported it. */
    billingInterval: text("billing_interval", { enum: ["month", "year"] }).notNull().default("month"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("billing_customers_customer_unique").on(t.provider, t.customerId)],
);

/** Provider events already handled, so a replayed webhook changes nothing. */
export const billingWebhookEvents = sqliteTable("billing_webhook_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: time("received_at").notNull(),
});

/**
 * The owner's Stripe Connect account (ADR 230): an Express account at the billing provider that takes
 * the page's tips and sales; its state is what the provider last reported (account.updated).
 */
export const connectAccounts = sqliteTable(
  "connect_accounts",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    accountId: text("account_id").notNull(),
    detailsSubmitted: bool("details_submitted").notNull().default(false),
    chargesEnabled: bool("charges_enabled").notNull().default(false),
    payoutsEnabled: bool("payouts_enabled").notNull().default(false),
    /** The provider still asks for information (requirements currently or past due). */
    detailsNeeded: bool("details_needed").notNull().default(true),
    /** The newest account event applied: an older one arriving late is ignored. */
    lastEventAt: time("last_event_at"),
    createdAt: createdAt(),
    updatedAt: time("updated_at").notNull().default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [uniqueIndex("connect_accounts_account_unique").on(t.provider, t.accountId)],
);

/** Why owners cancel (docs/product.md section 9, Cancel reasons; Other keeps their own words). */
export const subscriptionCancellations = sqliteTable(
  "subscription_cancellations",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    subscriptionId: text("subscription_id"),
    reason: text("reason"),
    createdAt: createdAt(),
  },
  (t) => [index("subscription_cancellations_user_idx").on(t.userId)],
);

/** Months of Plus paid from the rewards balance (docs/product.md section 7, process-balance-renewal). */
export const balanceRenewals = sqliteTable(
  "balance_renewals",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    requestKey: text("request_key").notNull(),
    months: integer("months").notNull(),
    costCents: integer("cost_cents").notNull(),
    invoiceId: text("invoice_id").references(() => invoices.id, { onDelete: "set null" }),
    periodEnd: time("period_end").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("balance_renewals_request_key_unique").on(t.userId, t.requestKey), check("balance_renewals_months", sql`${t.months} >= 1`)],
);

export const JOB_KINDS = ["mail", "rerender", "page-boundary", "provider-due", "provider-events", "cdn-purge", "target-cleanup", "backup", "domain-check", "page-address"] as const;
export const JOB_STATES = ["pending", "done", "failed"] as const;

/**
 * The one job queue (api/jobs, ADR 100): work that follows a change (an e-mail, re-rendering a
 * page), written in the same transaction as the change and run after it commits, retried with
 * backoff. A job with a once key is kept when done, so the same key is never enqueued twice. A
 * worker claims a job before running it, with a lease, so one job runs in one process at a time.
 */
export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: JOB_KINDS }).notNull(),
    payload: text("payload", { mode: "json" }).notNull(),
    onceKey: text("once_key"),
    state: text("state", { enum: JOB_STATES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    runAfter: time("run_after").notNull(),
    lastError: text("last_error"),
    /** The worker running it (ADR 180): claimed in one statement, held while `lease_until` is ahead. */
    claimedBy: text("claimed_by"),
    /** Past this instant the claim is void (its process died): another worker may run the job again. */
    leaseUntil: time("lease_until"),
    createdAt: createdAt(),
  },
  (t) => [
    index("jobs_state_run_after_idx").on(t.state, t.runAfter),
    uniqueIndex("jobs_once_key_unique").on(t.onceKey),
    check("jobs_kind", oneOf(t.kind, JOB_KINDS)),
    check("jobs_state", oneOf(t.state, JOB_STATES)),
  ],
);

export const BACKUP_RUN_STATES = ["running", "verified", "failed"] as const;

/**
 * Scheduled backups (ADR 160): one row per period of BACKUP_EVERY, written by the process that takes
 * the period's `backup` job. The row is the claim (another process finding it leaves the period
 * alone while `lease_until` is ahead; the runner renews it as it works) and then the record an
 * operator reads: the archive's name, its size and what its verification found.
 */
export const backupRuns = sqliteTable(
  "backup_runs",
  {
    /** The period's start: the instant the backup was due. */
    at: time("at").primaryKey(),
    state: text("state", { enum: BACKUP_RUN_STATES }).notNull(),
    leaseUntil: time("lease_until").notNull(),
    /** The archive's name in BACKUP_DIR or under the bucket's prefix, once it is stored. */
    name: text("name"),
    bytes: integer("bytes"),
    /** What the verification found, or why the backup failed. */
    detail: text("detail").notNull().default(""),
    startedAt: time("started_at").notNull(),
    finishedAt: time("finished_at"),
  },
  (t) => [check("backup_runs_state", oneOf(t.state, BACKUP_RUN_STATES))],
);

// ---------------------------------------------------------------------------------------------
// The test-mode billing provider's own records (api/billing/test-mode). A hosted provider keeps
// these on its side; the embedded one keeps them here, apart from the product's tables above.

export const TEST_CARD_BEHAVIOURS = ["ok", "decline_renewals"] as const;

export const testBillingCustomers = sqliteTable("test_billing_customers", {
  id: text("id").primaryKey(),
  /** Like a hosted provider, it keeps its customer (and the invoice numbers) when the account is deleted. */
  userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
  email: text("email").notNull(),
  cardBrand: text("card_brand"),
  cardLast4: text("card_last4"),
  cardBehaviour: text("card_behaviour", { enum: TEST_CARD_BEHAVIOURS }),
  createdAt: createdAt(),
});

export const TEST_SESSION_KINDS = ["checkout", "portal"] as const;
export const TEST_SESSION_STATUSES = ["open", "complete", "expired"] as const;

export const testBillingSessions = sqliteTable(
  "test_billing_sessions",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: TEST_SESSION_KINDS }).notNull(),
    customerId: text("customer_id").notNull().references(() => testBillingCustomers.id, { onDelete: "cascade" }),
    status: text("status", { enum: TEST_SESSION_STATUSES }).notNull().default("open"),
    amountCents: integer("amount_cents").notNull().default(0),
    /** A checkout's billing interval: "month" or "year". */
    interval: text("interval", { enum: ["month", "year"] }).notNull().default("month"),
    successUrl: text("success_url").notNull(),
    cancelUrl: text("cancel_url").notNull(),
    subscriptionId: text("subscription_id"),
    expiresAt: time("expires_at").notNull(),
    completedAt: time("completed_at"),
    createdAt: createdAt(),
  },
  (t) => [check("test_billing_sessions_kind", oneOf(t.kind, TEST_SESSION_KINDS)), check("test_billing_sessions_status", oneOf(t.status, TEST_SESSION_STATUSES))],
);

export const TEST_SUBSCRIPTION_STATUSES = ["active", "past_due", "canceled"] as const;

export const testBillingSubscriptions = sqliteTable(
  "test_billing_subscriptions",
  {
    id: text("id").primaryKey(),
    customerId: text("customer_id").notNull().references(() => testBillingCustomers.id, { onDelete: "cascade" }),
    status: text("status", { enum: TEST_SUBSCRIPTION_STATUSES }).notNull(),
    amountCents: integer("amount_cents").notNull(),
    /** Billed every month or every year ("month", "year"). */
    interval: text("interval", { enum: ["month", "year"] }).notNull().default("month"),
    currentPeriodStart: time("current_period_start").notNull(),
    currentPeriodEnd: time("current_period_end").notNull(),
    cancelAtPeriodEnd: bool("cancel_at_period_end").notNull().default(false),
    /** While past due: when the open invoice is tried again (null once no retry is left). */
    nextAttemptAt: time("next_attempt_at"),
    endedAt: time("ended_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("test_billing_subscriptions_due_idx").on(t.status, t.currentPeriodEnd),
    check("test_billing_subscriptions_status", oneOf(t.status, TEST_SUBSCRIPTION_STATUSES)),
  ],
);

export const testBillingInvoices = sqliteTable(
  "test_billing_invoices",
  {
    id: text("id").primaryKey(),
    customerId: text("customer_id").notNull().references(() => testBillingCustomers.id, { onDelete: "cascade" }),
    subscriptionId: text("subscription_id").notNull(),
    number: text("number").notNull(),
    amountCents: integer("amount_cents").notNull(),
    status: text("status", { enum: INVOICE_STATUSES }).notNull(),
    billingReason: text("billing_reason", { enum: ["subscription_create", "subscription_cycle"] }).notNull(),
    periodStart: time("period_start").notNull(),
    periodEnd: time("period_end").notNull(),
    attemptCount: integer("attempt_count").notNull().default(0),
    paidAt: time("paid_at"),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("test_billing_invoices_number_unique").on(t.number), check("test_billing_invoices_status", oneOf(t.status, INVOICE_STATUSES))],
);

/**
 * Events waiting for (or done with) delivery to the webhook, in the order they happened (seq). Their
 * delivery and its retries are jobs (`provider-events`), so this table only records what was sent.
 */
export const testBillingEvents = sqliteTable(
  "test_billing_events",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull(),
    type: text("type").notNull(),
    payload: text("payload").notNull(),
    createdAt: time("created_at").notNull(),
    deliveredAt: time("delivered_at"),
  },
  (t) => [uniqueIndex("test_billing_events_id_unique").on(t.id), index("test_billing_events_pending_idx").on(t.deliveredAt, t.seq)],
);

/**
 * Files sold by Paid download links (ADR 231): kept in DATA_DIR/downloads under a random name, never
 * in the published folder or the bucket, and served only through a buyer's signed link.
 */
export const downloadFiles = sqliteTable(
  "download_files",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    storageKey: text("storage_key").notNull(),
    contentType: text("content_type").notNull(),
    bytes: integer("bytes").notNull(),
    /** The name it had on the owner's device, cleaned; the buyer's download is named after it. */
    originalName: text("original_name"),
    createdAt: createdAt(),
  },
  (t) => [index("download_files_user_idx").on(t.userId), uniqueIndex("download_files_key_unique").on(t.storageKey)],
);

export const SALE_KINDS = ["tip", "download"] as const;
export const SALE_STATUSES = ["open", "paid", "refunded"] as const;

/**
 * Tips and sales on an owner's page (ADR 232): made `open` with the Checkout Session, before the
 * buyer pays; `paid` by the provider's checkout.session.completed, `refunded` by charge.refunded.
 * The item's title, amount and fee are kept as they were charged, whatever the link becomes.
 */
export const sales = sqliteTable(
  "sales",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    linkId: text("link_id"),
    kind: text("kind", { enum: SALE_KINDS }).notNull(),
    itemTitle: text("item_title").notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    feeAmount: integer("fee_amount").notNull(),
    /** The visitor's note with a tip, cleaned; private notes are the owner's only. */
    note: text("note").notNull().default(""),
    notePrivate: bool("note_private").notNull().default(false),
    status: text("status", { enum: SALE_STATUSES }).notNull().default("open"),
    provider: text("provider").notNull(),
    accountId: text("account_id").notNull(),
    sessionId: text("session_id"),
    paymentIntentId: text("payment_intent_id"),
    buyerEmail: text("buyer_email"),
    /** The download file sold (a Paid download), as it was when the buyer paid. */
    fileId: text("file_id"),
    /** The success page's key: the buyer's browser proves it came back from this checkout. */
    receiptKey: text("receipt_key").notNull(),
    createdAt: createdAt(),
    paidAt: time("paid_at"),
    refundedAt: time("refunded_at"),
    /** What the provider has refunded so far, in the smallest unit (ADR 239): the whole amount once `refunded`. */
    refundedAmount: integer("refunded_amount").notNull().default(0),
  },
  (t) => [
    index("sales_user_paid_idx").on(t.userId, t.paidAt),
    uniqueIndex("sales_session_unique").on(t.provider, t.sessionId),
    index("sales_payment_intent_idx").on(t.provider, t.paymentIntentId),
    check("sales_kind", oneOf(t.kind, SALE_KINDS)),
    check("sales_status", oneOf(t.status, SALE_STATUSES)),
  ],
);

/**
 * A buyer's download link (ADR 232): `{id}.{expires}.{signature}`, the signature an HMAC of the id
 * and expiry under this row's own random key; it opens the file up to `max_uses` times until it
 * expires, and never after a refund.
 */
export const downloadGrants = sqliteTable("download_grants", {
  id: text("id").primaryKey(),
  saleId: text("sale_id")
    .notNull()
    .unique()
    .references(() => sales.id, { onDelete: "cascade" }),
  key: text("key").notNull(),
  expiresAt: time("expires_at").notNull(),
  uses: integer("uses").notNull().default(0),
  maxUses: integer("max_uses").notNull(),
  revokedAt: time("revoked_at"),
  createdAt: createdAt(),
});

/**
 * The test-mode provider's Connect accounts (ADR 230): onboarded on its own page, which either
 * completes the details or leaves them for later.
 */
export const testConnectAccounts = sqliteTable("test_connect_accounts", {
  id: text("id").primaryKey(),
  userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
  email: text("email").notNull(),
  detailsSubmitted: bool("details_submitted").notNull().default(false),
  chargesEnabled: bool("charges_enabled").notNull().default(false),
  payoutsEnabled: bool("payouts_enabled").notNull().default(false),
  createdAt: createdAt(),
});

/** Its Account Links: one use each, and short-lived, as Stripe's are. */
export const testConnectLinks = sqliteTable("test_connect_links", {
  id: text("id").primaryKey(),
  accountId: text("account_id")
    .notNull()
    .references(() => testConnectAccounts.id, { onDelete: "cascade" }),
  returnUrl: text("return_url").notNull(),
  refreshUrl: text("refresh_url").notNull(),
  expiresAt: time("expires_at").notNull(),
  usedAt: time("used_at"),
  createdAt: createdAt(),
});

export const TEST_CONNECT_SESSION_STATUSES = ["open", "complete"] as const;

/** Its Checkout Sessions on a connected account: a tip or a sale, paid on its own page. */
export const testConnectSessions = sqliteTable(
  "test_connect_sessions",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => testConnectAccounts.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["tip", "download"] }).notNull(),
    name: text("name").notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    feeAmount: integer("fee_amount").notNull(),
    /** The product's ids, as JSON, carried back on the completed session. */
    metadata: text("metadata").notNull().default("{}"),
    successUrl: text("success_url").notNull(),
    cancelUrl: text("cancel_url").notNull(),
    status: text("status", { enum: TEST_CONNECT_SESSION_STATUSES }).notNull().default("open"),
    buyerEmail: text("buyer_email"),
    paymentIntentId: text("payment_intent_id"),
    refundedAt: time("refunded_at"),
    expiresAt: time("expires_at").notNull(),
    completedAt: time("completed_at"),
    createdAt: createdAt(),
  },
  (t) => [check("test_connect_sessions_status", oneOf(t.status, TEST_CONNECT_SESSION_STATUSES))],
);

// ---------------------------------------------------------------------------------------------
// Custom domains

/**
 * A page's own domain (ADR 240): one per account. `name` is the ASCII form (IDNA "xn--" labels),
 * lowercase, without a final dot; `claim_key` is it without a leading "www.", so `x.com` and
 * `www.x.com` are one claim. Any number of owners may add a name; once one verifies it, nobody else
 * can (the partial unique index), and the others' checks say it is taken.
 */
export const customDomains = sqliteTable(
  "custom_domains",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    claimKey: text("claim_key").notNull(),
    /** The value the TXT record `_plinth.<name>` must hold after `plinth-verification=`. */
    token: text("token").notNull(),
    createdAt: createdAt(),
    /** The background check runs until this instant (a day after the add, or after "Check now"). */
    checkUntil: time("check_until").notNull(),
    lastCheckedAt: time("last_checked_at"),
    /** What the last check found of each record (api/services/domains.ts, DomainCheck). */
    lastCheck: text("last_check", { mode: "json" }),
    verifiedAt: time("verified_at"),
  },
  (t) => [
    uniqueIndex("custom_domains_user_unique").on(t.userId),
    uniqueIndex("custom_domains_verified_claim_unique").on(t.claimKey).where(sql`${t.verifiedAt} IS NOT NULL`),
    index("custom_domains_claim_idx").on(t.claimKey),
  ],
);

// ---------------------------------------------------------------------------------------------
// The operator's record

/**
 * Every admin action and every use of the admin shell command (ADR 105). Append-only: triggers made
 * by the migration refuse any UPDATE or DELETE, and nothing points at users, so the record outlives
 * the accounts it names.
 */
export const adminAuditLog = sqliteTable(
  "admin_audit_log",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    at: time("at").notNull(),
    /** The admin's user id, or null for the shell. */
    actorId: text("actor_id"),
    /** The admin's e-mail at the time, or "shell (user@host)". */
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    /** What the target was called then (an e-mail, a username), for reading the record later. */
    targetLabel: text("target_label").notNull().default(""),
    reason: text("reason").notNull().default(""),
    /** JSON objects of the fields changed, before and after. */
    before: text("before").notNull().default("{}"),
    after: text("after").notNull().default("{}"),
  },
  (t) => [index("admin_audit_log_at_idx").on(t.at), index("admin_audit_log_target_idx").on(t.targetType, t.targetId)],
);
