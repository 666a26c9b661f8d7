ALTER TABLE `users` ADD `last_sign_in_at` integer;--> statement-breakpoint
-- By hand: an account's newest session is its last sign-in so far.
UPDATE `users` SET `last_sign_in_at` = (SELECT max(`created_at`) FROM `sessions` WHERE `sessions`.`user_id` = `users`.`id`);
