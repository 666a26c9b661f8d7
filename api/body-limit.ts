import { ApiError } from "./errors.ts";

/** JSON bodies are small; uploads have their own, larger limit on their routes. */
export const JSON_BODY_LIMIT = 64 * 1024;

export const bodyTooLarge = () => new ApiError("payload_too_large", "Request body is too large");
