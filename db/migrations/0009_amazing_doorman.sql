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
-- Existing events, counted into the rollups once, by day and by quarter hour (data moved by hand).
INSERT INTO `analytics_rollups` (`user_id`, `dimension`, `grain`, `bucket`, `key`, `views`, `clicks`)
SELECT `user_id`, 'page', g.grain, `occurred_at` / g.ms, '', sum(`kind` = 'page_view'), sum(`kind` = 'link_click')
FROM `analytics_events`, (SELECT 'day' AS grain, 86400000 AS ms UNION ALL SELECT 'quarter', 900000) AS g
WHERE `device` <> 'bot' AND 1 GROUP BY 1, 3, 4, 5;
--> statement-breakpoint
INSERT INTO `analytics_rollups` (`user_id`, `dimension`, `grain`, `bucket`, `key`, `views`, `clicks`)
SELECT `user_id`, 'link', g.grain, `occurred_at` / g.ms, link_id, sum(`kind` = 'page_view'), sum(`kind` = 'link_click')
FROM `analytics_events`, (SELECT 'day' AS grain, 86400000 AS ms UNION ALL SELECT 'quarter', 900000) AS g
WHERE `device` <> 'bot' AND kind = 'link_click' GROUP BY 1, 3, 4, 5;
--> statement-breakpoint
INSERT INTO `analytics_rollups` (`user_id`, `dimension`, `grain`, `bucket`, `key`, `views`, `clicks`)
SELECT `user_id`, 'referrer', g.grain, `occurred_at` / g.ms, coalesce(referrer_domain, ''), sum(`kind` = 'page_view'), sum(`kind` = 'link_click')
FROM `analytics_events`, (SELECT 'day' AS grain, 86400000 AS ms UNION ALL SELECT 'quarter', 900000) AS g
WHERE `device` <> 'bot' AND kind = 'page_view' GROUP BY 1, 3, 4, 5;
--> statement-breakpoint
INSERT INTO `analytics_rollups` (`user_id`, `dimension`, `grain`, `bucket`, `key`, `views`, `clicks`)
SELECT `user_id`, 'device', g.grain, `occurred_at` / g.ms, device, sum(`kind` = 'page_view'), sum(`kind` = 'link_click')
FROM `analytics_events`, (SELECT 'day' AS grain, 86400000 AS ms UNION ALL SELECT 'quarter', 900000) AS g
WHERE `device` <> 'bot' AND kind = 'page_view' GROUP BY 1, 3, 4, 5;
