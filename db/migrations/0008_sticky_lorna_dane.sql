CREATE TABLE `analytics_salts` (
	`day` integer PRIMARY KEY NOT NULL,
	`salt` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `analytics_visitors` (
	`day` integer NOT NULL,
	`hash` text NOT NULL,
	PRIMARY KEY(`day`, `hash`)
);
--> statement-breakpoint
ALTER TABLE `analytics_events` ADD `country` text;--> statement-breakpoint
ALTER TABLE `analytics_events` ADD `utm_source` text;--> statement-breakpoint
ALTER TABLE `analytics_events` ADD `utm_medium` text;--> statement-breakpoint
ALTER TABLE `analytics_events` ADD `utm_campaign` text;--> statement-breakpoint
ALTER TABLE `analytics_rollups` ADD `visitors` integer DEFAULT 0 NOT NULL;