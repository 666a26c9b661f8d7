ALTER TABLE `page_versions` ADD `plan` text;--> statement-breakpoint
ALTER TABLE `page_versions` ADD `hidden_by_plan` text;--> statement-breakpoint
ALTER TABLE `user_profiles` ADD `long_form_text_visible` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `user_profiles` ADD `plus_items_state` text DEFAULT 'none' NOT NULL;