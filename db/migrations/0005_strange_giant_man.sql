ALTER TABLE `invoices` ADD `billed_email` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `billed_username` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `billed_name` text;