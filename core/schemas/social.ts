/**
 * The social-link forms (docs/product.md sections 3 and 5): a new link's platform and handle, cleaned into its
 * stored url by core/social-handle.ts, and an edited handle.
 */
import { z } from "zod";
import { DASH } from "../dashboard-texts.ts";
import { getPlatform, PLATFORM_IDS } from "../platforms.ts";
import { cleanHandle } from "../social-handle.ts";

export const SocialAddSchema = z
  .object({ platform: z.enum(PLATFORM_IDS, "Please choose a platform"), handle: z.string().max(2048) })
  .transform((v, ctx) => {
    const platform = getPlatform(v.platform)!;
    const handle = cleanHandle(platform, v.handle);
    if (handle === null) {
      ctx.addIssue({ code: "custom", path: ["handle"], message: platform.id === "whatsapp" ? DASH.whatsappInvalid : DASH.handleRequired });
      return z.NEVER;
    }
    return { platform: platform.id, url: platform.baseUrl + handle };
  });

export const SocialEditSchema = z.object({ handle: z.string().max(2048) });
