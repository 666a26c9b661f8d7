CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`payload` text NOT NULL,
	`once_key` text,
	`state` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`run_after` integer NOT NULL,
	`last_error` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	CONSTRAINT "jobs_kind" CHECK("jobs"."kind" IN ('mail', 'rerender')),
	CONSTRAINT "jobs_state" CHECK("jobs"."state" IN ('pending', 'done', 'failed'))
);
--> statement-breakpoint
CREATE INDEX `jobs_state_run_after_idx` ON `jobs` (`state`,`run_after`);--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_once_key_unique` ON `jobs` (`once_key`);