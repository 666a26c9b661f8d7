ALTER TABLE `page_reports` ADD `pinned_version` integer;--> statement-breakpoint
ALTER TABLE `page_reports` ADD `dismissed_at` integer;--> statement-breakpoint
CREATE INDEX `page_reports_user_idx` ON `page_reports` (`reported_user_id`);--> statement-breakpoint
ALTER TABLE `user_profiles` ADD `page_suspended_at` integer;--> statement-breakpoint
ALTER TABLE `user_profiles` ADD `page_suspension_reason` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `suspended_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `suspension_reason` text DEFAULT '' NOT NULL;