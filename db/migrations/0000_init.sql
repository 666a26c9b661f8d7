CREATE TABLE `analytics_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`link_id` text,
	`occurred_at` integer NOT NULL,
	`referrer_domain` text,
	`device` text DEFAULT 'other' NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "analytics_kind" CHECK("analytics_events"."kind" IN ('page_view', 'link_click')),
	CONSTRAINT "analytics_device" CHECK("analytics_events"."device" IN ('mobile', 'tablet', 'desktop', 'bot', 'other')),
	CONSTRAINT "analytics_click_has_link" CHECK("analytics_events"."kind" = 'page_view' OR "analytics_events"."link_id" IS NOT NULL)
);
--> statement-breakpoint
CREATE INDEX `analytics_user_time_idx` ON `analytics_events` (`user_id`,`occurred_at`);--> statement-breakpoint
CREATE TABLE `auth_throttle` (
	`action` text NOT NULL,
	`subject` text NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`last_attempt_at` integer NOT NULL,
	PRIMARY KEY(`action`, `subject`),
	CONSTRAINT "auth_throttle_action" CHECK("auth_throttle"."action" IN ('sign_in', 'sign_up', 'reset', 'two_factor'))
);
--> statement-breakpoint
CREATE TABLE `collected_leads` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`link_id` text,
	`link_title` text NOT NULL,
	`email` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `collected_leads_user_idx` ON `collected_leads` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `contact_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`message` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `email_verification_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`purpose` text NOT NULL,
	`email` text NOT NULL,
	`signup_attempt_id` text,
	`user_id` text,
	`code_hash` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL,
	`sent_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`signup_attempt_id`) REFERENCES `signup_attempts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "email_codes_purpose" CHECK("email_verification_codes"."purpose" IN ('signup', 'verify_email')),
	CONSTRAINT "email_codes_owner" CHECK("email_verification_codes"."signup_attempt_id" IS NOT NULL OR "email_verification_codes"."user_id" IS NOT NULL)
);
--> statement-breakpoint
CREATE INDEX `email_codes_email_idx` ON `email_verification_codes` (`email`);--> statement-breakpoint
CREATE TABLE `invoices` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`status` text NOT NULL,
	`description` text NOT NULL,
	`invoice_url` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "invoices_status" CHECK("invoices"."status" IN ('paid', 'open', 'void', 'uncollectible'))
);
--> statement-breakpoint
CREATE INDEX `invoices_user_idx` ON `invoices` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `link_lists` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`title` text NOT NULL,
	`order_index` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `link_lists_user_idx` ON `link_lists` (`user_id`,`order_index`);--> statement-breakpoint
CREATE TABLE `links` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`title` text NOT NULL,
	`url` text NOT NULL,
	`link_type` text DEFAULT 'standard_url' NOT NULL,
	`link_specific_data` text DEFAULT '{}' NOT NULL,
	`is_main_button` integer DEFAULT false NOT NULL,
	`is_main_link` integer DEFAULT false NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`order_index` integer DEFAULT 0 NOT NULL,
	`thumbnail_url` text,
	`schedule_start_time` integer,
	`schedule_end_time` integer,
	`parent_list_id` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`parent_list_id`) REFERENCES `link_lists`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "links_type" CHECK("links"."link_type" IN ('standard_url', 'label', 'text_link', 'donation', 'lead_magnet', 'vcf', 'music', 'social', 'promote_plinth')),
	CONSTRAINT "links_schedule_order" CHECK("links"."schedule_start_time" IS NULL OR "links"."schedule_end_time" IS NULL OR "links"."schedule_end_time" > "links"."schedule_start_time")
);
--> statement-breakpoint
CREATE INDEX `links_user_idx` ON `links` (`user_id`,`order_index`);--> statement-breakpoint
CREATE TABLE `page_reports` (
	`id` text PRIMARY KEY NOT NULL,
	`reported_user_id` text,
	`reported_page_username` text NOT NULL,
	`reason` text NOT NULL,
	`details` text DEFAULT '' NOT NULL,
	`reporter_ip_hash` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`reported_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "page_reports_reason" CHECK("page_reports"."reason" IN ('spam', 'harassment', 'inappropriate', 'copyright', 'impersonation', 'other'))
);
--> statement-breakpoint
CREATE TABLE `page_versions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`version` integer NOT NULL,
	`snapshot` text NOT NULL,
	`content_hash` text NOT NULL,
	`html_file` text NOT NULL,
	`published_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `page_versions_user_version_unique` ON `page_versions` (`user_id`,`version`);--> statement-breakpoint
CREATE TABLE `password_reset_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `password_reset_user_idx` ON `password_reset_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `payout_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`requested_amount_cents` integer NOT NULL,
	`processing_fee_cents` integer NOT NULL,
	`net_amount_cents` integer NOT NULL,
	`payout_email` text NOT NULL,
	`payout_method` text DEFAULT 'paypal' NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "payout_requests_method" CHECK("payout_requests"."payout_method" IN ('paypal')),
	CONSTRAINT "payout_requests_status" CHECK("payout_requests"."status" IN ('pending', 'processing', 'completed', 'failed', 'rejected')),
	CONSTRAINT "payout_requests_amounts" CHECK("payout_requests"."net_amount_cents" = "payout_requests"."requested_amount_cents" - "payout_requests"."processing_fee_cents" AND "payout_requests"."net_amount_cents" > 0)
);
--> statement-breakpoint
CREATE INDEX `payout_requests_user_idx` ON `payout_requests` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `referral_earnings` (
	`id` text PRIMARY KEY NOT NULL,
	`referrer_id` text NOT NULL,
	`referred_user_id` text,
	`invoice_id` text,
	`billing_period` text DEFAULT 'monthly' NOT NULL,
	`payment_cents` integer NOT NULL,
	`commission_cents` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`referrer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`referred_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `referral_earnings_referrer_idx` ON `referral_earnings` (`referrer_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`secret_hash` text NOT NULL,
	`user_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	`persistent` integer DEFAULT true NOT NULL,
	`user_agent` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`last_seen_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `signup_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`username` text NOT NULL,
	`email` text,
	`email_verified_at` integer,
	`google_sub` text,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	CONSTRAINT "signup_attempts_username_lowercase" CHECK("signup_attempts"."username" = lower("signup_attempts"."username"))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `signup_attempts_username_unique` ON `signup_attempts` (`username`);--> statement-breakpoint
CREATE UNIQUE INDEX `signup_attempts_token_unique` ON `signup_attempts` (`token_hash`);--> statement-breakpoint
CREATE TABLE `social_links` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`platform` text NOT NULL,
	`url` text NOT NULL,
	`display_order` integer DEFAULT 1 NOT NULL,
	`is_visible` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "social_links_platform" CHECK("social_links"."platform" IN ('tiktok', 'instagram', 'snapchat', 'youtube', 'x', 'spotify', 'soundcloud', 'facebook', 'linkedin', 'reddit', 'pinterest', 'twitch', 'vimeo', 'github', 'strava', 'etsy', 'behance', 'whatsapp'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `social_links_user_platform_unique` ON `social_links` (`user_id`,`platform`);--> statement-breakpoint
CREATE TABLE `upgrade_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`feature_key` text NOT NULL,
	`reason` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `upgrade_requests_user_idx` ON `upgrade_requests` (`user_id`);--> statement-breakpoint
CREATE TABLE `uploads` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`storage_key` text NOT NULL,
	`content_type` text NOT NULL,
	`bytes` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "uploads_kind" CHECK("uploads"."kind" IN ('profile_picture', 'thumbnail', 'lead_magnet'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `uploads_key_unique` ON `uploads` (`storage_key`);--> statement-breakpoint
CREATE TABLE `user_2fa_settings` (
	`user_id` text PRIMARY KEY NOT NULL,
	`secret_key` text,
	`is_enabled` integer DEFAULT false NOT NULL,
	`backup_codes` text DEFAULT '[]' NOT NULL,
	`last_used_step` integer,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `user_profiles` (
	`user_id` text PRIMARY KEY NOT NULL,
	`username` text NOT NULL,
	`display_name` text DEFAULT '' NOT NULL,
	`bio` text DEFAULT '' NOT NULL,
	`seo_title` text DEFAULT '' NOT NULL,
	`seo_description` text DEFAULT '' NOT NULL,
	`long_form_text` text DEFAULT '' NOT NULL,
	`plan_type` text DEFAULT 'lite' NOT NULL,
	`subscription_status` text,
	`current_period_end_date` integer,
	`trial_ends_at` integer,
	`paying_since` integer,
	`has_published_page` integer DEFAULT false NOT NULL,
	`last_published_at` integer,
	`page_visibility` integer DEFAULT true NOT NULL,
	`rewards_balance_cents` integer DEFAULT 0 NOT NULL,
	`referral_id` text NOT NULL,
	`referred_by` text,
	`selected_theme_name` text DEFAULT 'minimalist-light' NOT NULL,
	`custom_page_background_color` text,
	`custom_button_background_color` text,
	`custom_button_border_color` text,
	`button_shape_style` text DEFAULT 'rounded' NOT NULL,
	`social_links_position` text DEFAULT 'top' NOT NULL,
	`custom_font_pairing_name` text,
	`hide_platform_branding` integer DEFAULT false NOT NULL,
	`remove_branding` integer DEFAULT false NOT NULL,
	`qr_code_visible` integer DEFAULT true NOT NULL,
	`profile_picture_url` text,
	`profile_picture_style` text DEFAULT 'icon' NOT NULL,
	`profile_picture_icon_subtype` text DEFAULT 'rounded' NOT NULL,
	`profile_picture_fullwidth_subtype` text DEFAULT 'portrait' NOT NULL,
	`initials_text` text DEFAULT '' NOT NULL,
	`initials_bg_color` text DEFAULT '#6366f1' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`referred_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "user_profiles_username_lowercase" CHECK("user_profiles"."username" = lower("user_profiles"."username")),
	CONSTRAINT "user_profiles_plan_type" CHECK("user_profiles"."plan_type" IN ('lite', 'plus')),
	CONSTRAINT "user_profiles_subscription_status" CHECK("user_profiles"."subscription_status" IS NULL OR "user_profiles"."subscription_status" IN ('active_plus', 'past_due_plus', 'canceled_plus')),
	CONSTRAINT "user_profiles_theme" CHECK("user_profiles"."selected_theme_name" IN ('minimalist-light', 'minimalist-dark', 'vibrant-bright', 'pastel-soft', 'gradient-sunset', 'neon-dark', 'forest-green', 'ocean-blue', 'royal-purple', 'golden-hour', 'mint-fresh', 'rose-gold')),
	CONSTRAINT "user_profiles_button_shape" CHECK("user_profiles"."button_shape_style" IN ('box', 'rounded', 'pill')),
	CONSTRAINT "user_profiles_social_position" CHECK("user_profiles"."social_links_position" IN ('top', 'bottom', 'floating')),
	CONSTRAINT "user_profiles_font" CHECK("user_profiles"."custom_font_pairing_name" IS NULL OR "user_profiles"."custom_font_pairing_name" IN ('modern-sans', 'elegant-serif', 'tech-mono', 'creative-display', 'professional')),
	CONSTRAINT "user_profiles_picture_style" CHECK("user_profiles"."profile_picture_style" IN ('icon', 'full_width', 'initials', 'hidden')),
	CONSTRAINT "user_profiles_icon_subtype" CHECK("user_profiles"."profile_picture_icon_subtype" IN ('rounded', 'rounded_corners', 'square')),
	CONSTRAINT "user_profiles_fullwidth_subtype" CHECK("user_profiles"."profile_picture_fullwidth_subtype" IN ('portrait', 'square', 'landscape')),
	CONSTRAINT "user_profiles_balance" CHECK("user_profiles"."rewards_balance_cents" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_profiles_username_unique` ON `user_profiles` (`username`);--> statement-breakpoint
CREATE UNIQUE INDEX `user_profiles_referral_unique` ON `user_profiles` (`referral_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`password_hash` text,
	`email_verified` integer DEFAULT false NOT NULL,
	`google_sub` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	CONSTRAINT "users_email_lowercase" CHECK("users"."email" = lower("users"."email"))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_google_sub_unique` ON `users` (`google_sub`);