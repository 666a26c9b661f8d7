CREATE TABLE `invoice_sequence` (
	`id` integer PRIMARY KEY NOT NULL,
	`last` integer NOT NULL,
	CONSTRAINT "invoice_sequence_one_row" CHECK("invoice_sequence"."id" = 1),
	CONSTRAINT "invoice_sequence_last" CHECK("invoice_sequence"."last" >= 0)
);
--> statement-breakpoint
ALTER TABLE `billing_customers` ADD `billing_interval` text DEFAULT 'month' NOT NULL;--> statement-breakpoint
ALTER TABLE `invoices` ADD `seller_name` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `seller_address` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `seller_tax_id` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `tax_rate_bp` integer;--> statement-breakpoint
-- Data move (written by hand, ADR 103): every invoice so far is renumbered PLN-000001 onwards in the
-- order it was issued (balance-paid ones had random numbers such as PLN-B-5QFRFX2U), before numbers
-- become unique; the sequence goes on after the last one.
UPDATE `invoices` SET `number` = printf('PLN-%06d', r.`n`)
FROM (SELECT `id`, row_number() OVER (ORDER BY `created_at`, `id`) AS `n` FROM `invoices`) AS r
WHERE r.`id` = `invoices`.`id`;--> statement-breakpoint
INSERT INTO `invoice_sequence` (`id`, `last`) VALUES (1, (SELECT count(*) FROM `invoices`));--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_number_unique` ON `invoices` (`number`);--> statement-breakpoint
ALTER TABLE `test_billing_sessions` ADD `interval` text DEFAULT 'month' NOT NULL;--> statement-breakpoint
ALTER TABLE `test_billing_subscriptions` ADD `interval` text DEFAULT 'month' NOT NULL;