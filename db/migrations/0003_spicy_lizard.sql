CREATE TABLE `lead_mail_sends` (
	`id` text PRIMARY KEY NOT NULL,
	`page_user_id` text NOT NULL,
	`recipient_hash` text NOT NULL,
	`sent_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `lead_mail_sends_page_idx` ON `lead_mail_sends` (`page_user_id`,`sent_at`);--> statement-breakpoint
CREATE INDEX `lead_mail_sends_recipient_idx` ON `lead_mail_sends` (`recipient_hash`,`sent_at`);