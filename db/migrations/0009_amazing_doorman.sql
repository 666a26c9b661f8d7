CREATE TABLE `analytics_rollups` (
	`user_id` text NOT NULL,
	`dimension` text NOT NULL,
	`grain` text NOT NULL,
	`bucket` integer NOT NULL,
	`key` text NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	`clicks` integer DEFAULT 0 NOT NULL,
	`visitors` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `dimension`, `grain`, `bucket`, `key`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "analytics_rollups_dimension" CHECK("analytics_rollups"."dimension" IN ('page', 'link', 'referrer', 'device', 'country', 'campaign')),
	CONSTRAINT "analytics_rollups_grain" CHECK("analytics_rollups"."grain" IN ('day', 'quarter'))
);
--> statement-breakpoint
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
-- Existing events, counted into the rollups once (data moved by hand).
INSERT INTO `analytics_rollups` (`user_id`, `dimension`, `grain`, `bucket`, `key`, `views`, `clicks`)
SELECT `user_id`, 'page', 'day', `occurred_at` / 86400000, '', sum(`kind` = 'page_view'), sum(`kind` = 'link_click')
FROM `analytics_events` WHERE `device` <> 'bot' AND 1 GROUP BY 1, 4, 5;
--> statement-breakpoint
INSERT INTO `analytics_rollups` (`user_id`, `dimension`, `grain`, `bucket`, `key`, `views`, `clicks`)
SELECT `user_id`, 'link', 'day', `occurred_at` / 86400000, link_id, sum(`kind` = 'page_view'), sum(`kind` = 'link_click')
FROM `analytics_events` WHERE `device` <> 'bot' AND kind = 'link_click' GROUP BY 1, 4, 5;
--> statement-breakpoint
INSERT INTO `analytics_rollups` (`user_id`, `dimension`, `grain`, `bucket`, `key`, `views`, `clicks`)
SELECT `user_id`, 'referrer', 'day', `occurred_at` / 86400000, coalesce(referrer_domain, ''), sum(`kind` = 'page_view'), sum(`kind` = 'link_click')
FROM `analytics_events` WHERE `device` <> 'bot' AND kind = 'page_view' GROUP BY 1, 4, 5;
--> statement-breakpoint
INSERT INTO `analytics_rollups` (`user_id`, `dimension`, `grain`, `bucket`, `key`, `views`, `clicks`)
SELECT `user_id`, 'device', 'day', `occurred_at` / 86400000, device, sum(`kind` = 'page_view'), sum(`kind` = 'link_click')
FROM `analytics_events` WHERE `device` <> 'bot' AND kind = 'page_view' GROUP BY 1, 4, 5;
--> statement-breakpoint
INSERT INTO `analytics_rollups` (`user_id`, `dimension`, `grain`, `bucket`, `key`, `views`, `clicks`)
SELECT `user_id`, 'page', 'quarter', `occurred_at` / 900000, '', sum(`kind` = 'page_view'), sum(`kind` = 'link_click')
FROM `analytics_events` WHERE `device` <> 'bot' AND 1 GROUP BY 1, 4, 5;
--> statement-breakpoint
INSERT INTO `analytics_rollups` (`user_id`, `dimension`, `grain`, `bucket`, `key`, `views`, `clicks`)
SELECT `user_id`, 'link', 'quarter', `occurred_at` / 900000, link_id, sum(`kind` = 'page_view'), sum(`kind` = 'link_click')
FROM `analytics_events` WHERE `device` <> 'bot' AND kind = 'link_click' GROUP BY 1, 4, 5;
--> statement-breakpoint
INSERT INTO `analytics_rollups` (`user_id`, `dimension`, `grain`, `bucket`, `key`, `views`, `clicks`)
SELECT `user_id`, 'referrer', 'quarter', `occurred_at` / 900000, coalesce(referrer_domain, ''), sum(`kind` = 'page_view'), sum(`kind` = 'link_click')
FROM `analytics_events` WHERE `device` <> 'bot' AND kind = 'page_view' GROUP BY 1, 4, 5;
--> statement-breakpoint
INSERT INTO `analytics_rollups` (`user_id`, `dimension`, `grain`, `bucket`, `key`, `views`, `clicks`)
SELECT `user_id`, 'device', 'quarter', `occurred_at` / 900000, device, sum(`kind` = 'page_view'), sum(`kind` = 'link_click')
FROM `analytics_events` WHERE `device` <> 'bot' AND kind = 'page_view' GROUP BY 1, 4, 5;
