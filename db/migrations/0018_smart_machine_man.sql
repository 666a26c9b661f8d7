ALTER TABLE `user_profiles` ADD `profile_picture_fullwidth_url` text;--> statement-breakpoint
-- Data, added by hand: a full-width picture stored before this column was cut for that layout, so it becomes the full-width crop.
UPDATE `user_profiles` SET `profile_picture_fullwidth_url` = `profile_picture_url` WHERE `profile_picture_style` = 'full_width';
