CREATE TABLE `connect_accounts` (
	`user_id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`account_id` text NOT NULL,
	`details_submitted` integer DEFAULT false NOT NULL,
	`charges_enabled` integer DEFAULT false NOT NULL,
	`payouts_enabled` integer DEFAULT false NOT NULL,
	`details_needed` integer DEFAULT true NOT NULL,
	`last_event_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `connect_accounts_account_unique` ON `connect_accounts` (`provider`,`account_id`);--> statement-breakpoint
CREATE TABLE `download_files` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`storage_key` text NOT NULL,
	`content_type` text NOT NULL,
	`bytes` integer NOT NULL,
	`original_name` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `download_files_user_idx` ON `download_files` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `download_files_key_unique` ON `download_files` (`storage_key`);--> statement-breakpoint
CREATE TABLE `download_grants` (
	`id` text PRIMARY KEY NOT NULL,
	`sale_id` text NOT NULL,
	`key` text NOT NULL,
	`expires_at` integer NOT NULL,
	`uses` integer DEFAULT 0 NOT NULL,
	`max_uses` integer NOT NULL,
	`revoked_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`sale_id`) REFERENCES `sales`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `download_grants_sale_id_unique` ON `download_grants` (`sale_id`);--> statement-breakpoint
CREATE TABLE `sales` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`link_id` text,
	`kind` text NOT NULL,
	`item_title` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`fee_amount` integer NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`note_private` integer DEFAULT false NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`provider` text NOT NULL,
	`account_id` text NOT NULL,
	`session_id` text,
	`payment_intent_id` text,
	`buyer_email` text,
	`file_id` text,
	`receipt_key` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`paid_at` integer,
	`refunded_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "sales_kind" CHECK("sales"."kind" IN ('tip', 'download')),
	CONSTRAINT "sales_status" CHECK("sales"."status" IN ('open', 'paid', 'refunded'))
);
--> statement-breakpoint
CREATE INDEX `sales_user_paid_idx` ON `sales` (`user_id`,`paid_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `sales_session_unique` ON `sales` (`provider`,`session_id`);--> statement-breakpoint
CREATE INDEX `sales_payment_intent_idx` ON `sales` (`provider`,`payment_intent_id`);--> statement-breakpoint
CREATE TABLE `test_connect_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`email` text NOT NULL,
	`details_submitted` integer DEFAULT false NOT NULL,
	`charges_enabled` integer DEFAULT false NOT NULL,
	`payouts_enabled` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `test_connect_links` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`return_url` text NOT NULL,
	`refresh_url` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `test_connect_accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `test_connect_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`fee_amount` integer NOT NULL,
	`metadata` text DEFAULT '{}' NOT NULL,
	`success_url` text NOT NULL,
	`cancel_url` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`buyer_email` text,
	`payment_intent_id` text,
	`refunded_at` integer,
	`expires_at` integer NOT NULL,
	`completed_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `test_connect_accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "test_connect_sessions_status" CHECK("test_connect_sessions"."status" IN ('open', 'complete'))
);
--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_links` (
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
	`revision` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`parent_list_id`) REFERENCES `link_lists`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "links_type" CHECK("__new_links"."link_type" IN ('standard_url', 'label', 'text_link', 'donation', 'lead_magnet', 'vcf', 'music', 'social', 'promote_plinth', 'tip', 'paid_download')),
	CONSTRAINT "links_schedule_order" CHECK("__new_links"."schedule_start_time" IS NULL OR "__new_links"."schedule_end_time" IS NULL OR "__new_links"."schedule_end_time" > "__new_links"."schedule_start_time")
);
--> statement-breakpoint
INSERT INTO `__new_links`("id", "user_id", "title", "url", "link_type", "link_specific_data", "is_main_button", "is_main_link", "is_active", "order_index", "thumbnail_url", "schedule_start_time", "schedule_end_time", "parent_list_id", "revision", "created_at", "updated_at") SELECT "id", "user_id", "title", "url", "link_type", "link_specific_data", "is_main_button", "is_main_link", "is_active", "order_index", "thumbnail_url", "schedule_start_time", "schedule_end_time", "parent_list_id", "revision", "created_at", "updated_at" FROM `links`;--> statement-breakpoint
DROP TABLE `links`;--> statement-breakpoint
ALTER TABLE `__new_links` RENAME TO `links`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `links_user_idx` ON `links` (`user_id`,`order_index`);