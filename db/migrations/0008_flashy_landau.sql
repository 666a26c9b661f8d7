-- Data move (written by hand): pending billing follow-ups become jobs before their table goes.
INSERT INTO `jobs` (`id`, `kind`, `payload`, `once_key`, `state`, `attempts`, `run_after`, `last_error`, `created_at`)
SELECT `id`, `kind`, `payload`, NULL, 'pending', `attempts`, `run_after`, `last_error`, `created_at` FROM `billing_jobs`;
--> statement-breakpoint
DROP TABLE `billing_jobs`;
