ALTER TABLE `payout_requests` ADD `eligibility_at_request` text;--> statement-breakpoint
ALTER TABLE `payout_requests` ADD `payment_reference` text;--> statement-breakpoint
ALTER TABLE `payout_requests` ADD `rejection_reason` text;--> statement-breakpoint
ALTER TABLE `payout_requests` ADD `decided_at` integer;--> statement-breakpoint
ALTER TABLE `payout_requests` ADD `decided_by` text;--> statement-breakpoint
CREATE INDEX `payout_requests_status_idx` ON `payout_requests` (`status`,`created_at`);