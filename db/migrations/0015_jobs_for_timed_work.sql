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
	CONSTRAINT "jobs_kind" CHECK("__new_jobs"."kind" IN ('mail', 'rerender', 'page-boundary', 'provider-due', 'provider-events')),
	CONSTRAINT "jobs_state" CHECK("__new_jobs"."state" IN ('pending', 'done', 'failed'))
);
--> statement-breakpoint
INSERT INTO `__new_jobs`("id", "kind", "payload", "once_key", "state", "attempts", "run_after", "last_error", "created_at") SELECT "id", "kind", "payload", "once_key", "state", "attempts", "run_after", "last_error", "created_at" FROM `jobs`;--> statement-breakpoint
DROP TABLE `jobs`;--> statement-breakpoint
ALTER TABLE `__new_jobs` RENAME TO `jobs`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `jobs_state_run_after_idx` ON `jobs` (`state`,`run_after`);--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_once_key_unique` ON `jobs` (`once_key`);--> statement-breakpoint
ALTER TABLE `test_billing_events` DROP COLUMN `attempts`;--> statement-breakpoint
ALTER TABLE `test_billing_events` DROP COLUMN `next_attempt_at`;--> statement-breakpoint
ALTER TABLE `test_billing_events` DROP COLUMN `last_error`;--> statement-breakpoint
-- By hand: a page published before its boundaries were jobs has none queued, so a boundary that
-- passed while the server was down for this upgrade would wait for the page's next publish. Pages
-- that have a scheduled link, or whose trial ended in the last week, get one re-render now (ADR 102).
INSERT INTO `jobs` (`id`, `kind`, `payload`, `run_after`)
SELECT lower(hex(randomblob(16))), 'rerender', json_object('userId', p.`user_id`), CAST(unixepoch('subsec') * 1000 AS INTEGER)
FROM `user_profiles` p
WHERE p.`has_published_page` = 1
  AND (
    EXISTS (SELECT 1 FROM `links` l WHERE l.`user_id` = p.`user_id` AND (l.`schedule_start_time` IS NOT NULL OR l.`schedule_end_time` IS NOT NULL))
    OR (p.`trial_ends_at` IS NOT NULL AND p.`trial_ends_at` <= unixepoch('subsec') * 1000 AND p.`trial_ends_at` > unixepoch('subsec') * 1000 - 7 * 86400000)
  );
