ALTER TABLE `billing_customers` ADD `billing_interval` text DEFAULT 'month' NOT NULL;--> statement-breakpoint
ALTER TABLE `test_billing_sessions` ADD `interval` text DEFAULT 'month' NOT NULL;--> statement-breakpoint
ALTER TABLE `test_billing_subscriptions` ADD `interval` text DEFAULT 'month' NOT NULL;