CREATE TABLE `server_secrets` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_invoices` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`amount_cents` integer NOT NULL,
	`status` text NOT NULL,
	`description` text NOT NULL,
	`invoice_url` text,
	`number` text,
	`subscription_id` text,
	`period_start` integer,
	`period_end` integer,
	`paid_at` integer,
	`payment_method` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "invoices_status" CHECK("__new_invoices"."status" IN ('paid', 'open', 'void', 'uncollectible'))
);
--> statement-breakpoint
INSERT INTO `__new_invoices`("id", "user_id", "amount_cents", "status", "description", "invoice_url", "number", "subscription_id", "period_start", "period_end", "paid_at", "payment_method", "created_at") SELECT "id", "user_id", "amount_cents", "status", "description", "invoice_url", "number", "subscription_id", "period_start", "period_end", "paid_at", "payment_method", "created_at" FROM `invoices`;--> statement-breakpoint
DROP TABLE `invoices`;--> statement-breakpoint
ALTER TABLE `__new_invoices` RENAME TO `invoices`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `invoices_user_idx` ON `invoices` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `__new_test_billing_customers` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`email` text NOT NULL,
	`card_brand` text,
	`card_last4` text,
	`card_behaviour` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_test_billing_customers`("id", "user_id", "email", "card_brand", "card_last4", "card_behaviour", "created_at") SELECT "id", "user_id", "email", "card_brand", "card_last4", "card_behaviour", "created_at" FROM `test_billing_customers`;--> statement-breakpoint
DROP TABLE `test_billing_customers`;--> statement-breakpoint
ALTER TABLE `__new_test_billing_customers` RENAME TO `test_billing_customers`;