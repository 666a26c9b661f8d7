CREATE TABLE `custom_domains` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`claim_key` text NOT NULL,
	`token` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`check_until` integer NOT NULL,
	`last_checked_at` integer,
	`last_check` text,
	`verified_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `custom_domains_user_unique` ON `custom_domains` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `custom_domains_verified_claim_unique` ON `custom_domains` (`claim_key`) WHERE "custom_domains"."verified_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `custom_domains_claim_idx` ON `custom_domains` (`claim_key`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`payload` text NOT NULL,
	`once_key` text,
	`state` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`run_after` integer NOT NULL,
	`last_error` text,
	`claimed_by` text,
	`lease_until` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	CONSTRAINT "jobs_kind" CHECK("__new_jobs"."kind" IN ('mail', 'rerender', 'page-boundary', 'provider-due', 'provider-events', 'cdn-purge', 'target-cleanup', 'backup', 'domain-check', 'page-address')),
	CONSTRAINT "jobs_state" CHECK("__new_jobs"."state" IN ('pending', 'done', 'failed'))
);
--> statement-breakpoint
INSERT INTO `__new_jobs`("id", "kind", "payload", "once_key", "state", "attempts", "run_after", "last_error", "claimed_by", "lease_until", "created_at") SELECT "id", "kind", "payload", "once_key", "state", "attempts", "run_after", "last_error", "claimed_by", "lease_until", "created_at" FROM `jobs`;--> statement-breakpoint
DROP TABLE `jobs`;--> statement-breakpoint
ALTER TABLE `__new_jobs` RENAME TO `jobs`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `jobs_state_run_after_idx` ON `jobs` (`state`,`run_after`);--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_once_key_unique` ON `jobs` (`once_key`);