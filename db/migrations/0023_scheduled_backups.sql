CREATE TABLE `backup_runs` (
	`at` integer PRIMARY KEY NOT NULL,
	`state` text NOT NULL,
	`lease_until` integer NOT NULL,
	`name` text,
	`bytes` integer,
	`detail` text DEFAULT '' NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	CONSTRAINT "backup_runs_state" CHECK("backup_runs"."state" IN ('running', 'verified', 'failed'))
);
--> statement-breakpoint
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
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	CONSTRAINT "jobs_kind" CHECK("__new_jobs"."kind" IN ('mail', 'rerender', 'page-boundary', 'provider-due', 'provider-events', 'cdn-purge', 'target-cleanup', 'backup')),
	CONSTRAINT "jobs_state" CHECK("__new_jobs"."state" IN ('pending', 'done', 'failed'))
);
--> statement-breakpoint
INSERT INTO `__new_jobs`("id", "kind", "payload", "once_key", "state", "attempts", "run_after", "last_error", "created_at") SELECT "id", "kind", "payload", "once_key", "state", "attempts", "run_after", "last_error", "created_at" FROM `jobs`;--> statement-breakpoint
DROP TABLE `jobs`;--> statement-breakpoint
ALTER TABLE `__new_jobs` RENAME TO `jobs`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `jobs_state_run_after_idx` ON `jobs` (`state`,`run_after`);--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_once_key_unique` ON `jobs` (`once_key`);