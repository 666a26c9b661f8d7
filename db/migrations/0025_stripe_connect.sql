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
