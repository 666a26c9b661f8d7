ALTER TABLE `jobs` ADD `claimed_by` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `lease_until` integer;