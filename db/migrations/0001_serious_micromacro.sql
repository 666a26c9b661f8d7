CREATE TABLE `two_factor_challenges` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`persistent` integer DEFAULT false NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `two_factor_challenges_user_idx` ON `two_factor_challenges` (`user_id`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_signup_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`username` text,
	`email` text,
	`email_verified_at` integer,
	`google_sub` text,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	CONSTRAINT "signup_attempts_username_lowercase" CHECK("__new_signup_attempts"."username" = lower("__new_signup_attempts"."username"))
);
--> statement-breakpoint
INSERT INTO `__new_signup_attempts`("id", "token_hash", "username", "email", "email_verified_at", "google_sub", "expires_at", "created_at") SELECT "id", "token_hash", "username", "email", "email_verified_at", "google_sub", "expires_at", "created_at" FROM `signup_attempts`;--> statement-breakpoint
DROP TABLE `signup_attempts`;--> statement-breakpoint
ALTER TABLE `__new_signup_attempts` RENAME TO `signup_attempts`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `signup_attempts_username_unique` ON `signup_attempts` (`username`);--> statement-breakpoint
CREATE UNIQUE INDEX `signup_attempts_token_unique` ON `signup_attempts` (`token_hash`);