CREATE TABLE `balance_renewals` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`request_key` text NOT NULL,
	`months` integer NOT NULL,
	`cost_cents` integer NOT NULL,
	`invoice_id` text,
	`period_end` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "balance_renewals_months" CHECK("balance_renewals"."months" >= 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `balance_renewals_request_key_unique` ON `balance_renewals` (`user_id`,`request_key`);--> statement-breakpoint
CREATE TABLE `billing_customers` (
	`user_id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`customer_id` text NOT NULL,
	`subscription_id` text,
	`card_brand` text,
	`card_last4` text,
	`last_event_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `billing_customers_customer_unique` ON `billing_customers` (`provider`,`customer_id`);--> statement-breakpoint
CREATE TABLE `billing_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`payload` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`run_after` integer NOT NULL,
	`last_error` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	CONSTRAINT "billing_jobs_kind" CHECK("billing_jobs"."kind" IN ('mail', 'rerender'))
);
--> statement-breakpoint
CREATE INDEX `billing_jobs_run_after_idx` ON `billing_jobs` (`run_after`);--> statement-breakpoint
CREATE TABLE `billing_webhook_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `subscription_cancellations` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`subscription_id` text,
	`reason` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `subscription_cancellations_user_idx` ON `subscription_cancellations` (`user_id`);--> statement-breakpoint
CREATE TABLE `test_billing_customers` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`email` text NOT NULL,
	`card_brand` text,
	`card_last4` text,
	`card_behaviour` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `test_billing_events` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`type` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` integer NOT NULL,
	`delivered_at` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`last_error` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `test_billing_events_id_unique` ON `test_billing_events` (`id`);--> statement-breakpoint
CREATE INDEX `test_billing_events_pending_idx` ON `test_billing_events` (`delivered_at`,`seq`);--> statement-breakpoint
CREATE TABLE `test_billing_invoices` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`subscription_id` text NOT NULL,
	`number` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`status` text NOT NULL,
	`billing_reason` text NOT NULL,
	`period_start` integer NOT NULL,
	`period_end` integer NOT NULL,
	`attempt_count` integer DEFAULT 0 NOT NULL,
	`paid_at` integer,
	`card_brand` text,
	`card_last4` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `test_billing_customers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "test_billing_invoices_status" CHECK("test_billing_invoices"."status" IN ('paid', 'open', 'void', 'uncollectible'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `test_billing_invoices_number_unique` ON `test_billing_invoices` (`number`);--> statement-breakpoint
CREATE TABLE `test_billing_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`customer_id` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`amount_cents` integer DEFAULT 0 NOT NULL,
	`success_url` text NOT NULL,
	`cancel_url` text NOT NULL,
	`subscription_id` text,
	`expires_at` integer NOT NULL,
	`completed_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `test_billing_customers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "test_billing_sessions_kind" CHECK("test_billing_sessions"."kind" IN ('checkout', 'portal')),
	CONSTRAINT "test_billing_sessions_status" CHECK("test_billing_sessions"."status" IN ('open', 'complete', 'expired'))
);
--> statement-breakpoint
CREATE TABLE `test_billing_subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`status` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`current_period_start` integer NOT NULL,
	`current_period_end` integer NOT NULL,
	`cancel_at_period_end` integer DEFAULT false NOT NULL,
	`next_attempt_at` integer,
	`ended_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `test_billing_customers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "test_billing_subscriptions_status" CHECK("test_billing_subscriptions"."status" IN ('active', 'past_due', 'canceled'))
);
--> statement-breakpoint
CREATE INDEX `test_billing_subscriptions_due_idx` ON `test_billing_subscriptions` (`status`,`current_period_end`);--> statement-breakpoint
ALTER TABLE `invoices` ADD `number` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `subscription_id` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `period_start` integer;--> statement-breakpoint
ALTER TABLE `invoices` ADD `period_end` integer;--> statement-breakpoint
ALTER TABLE `invoices` ADD `paid_at` integer;--> statement-breakpoint
ALTER TABLE `invoices` ADD `payment_method` text;--> statement-breakpoint
ALTER TABLE `payout_requests` ADD `request_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `payout_requests_request_key_unique` ON `payout_requests` (`user_id`,`request_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `referral_earnings_invoice_unique` ON `referral_earnings` (`invoice_id`);