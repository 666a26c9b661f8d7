CREATE TABLE `admin_audit_log` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`actor_id` text,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text NOT NULL,
	`target_label` text DEFAULT '' NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`before` text DEFAULT '{}' NOT NULL,
	`after` text DEFAULT '{}' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `admin_audit_log_at_idx` ON `admin_audit_log` (`at`);--> statement-breakpoint
CREATE INDEX `admin_audit_log_target_idx` ON `admin_audit_log` (`target_type`,`target_id`);--> statement-breakpoint
-- By hand: the generated rebuild of `users` copied a `role` column that does not exist yet. Adding
-- the column keeps every row and every table that points at users as it is.
ALTER TABLE `users` ADD `role` text DEFAULT 'owner' NOT NULL CONSTRAINT "users_role" CHECK("role" IN ('owner', 'admin'));--> statement-breakpoint
-- The record is append-only (ADR 105): no statement may change or remove a row.
CREATE TRIGGER `admin_audit_log_no_update` BEFORE UPDATE ON `admin_audit_log` BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;--> statement-breakpoint
CREATE TRIGGER `admin_audit_log_no_delete` BEFORE DELETE ON `admin_audit_log` BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
