/**
 * The Music link's services list as the link dialog and the API check it (ADR 211), with
 * core/music.ts's messages and services. The renderer reads stored lists with core/music.ts alone,
 * so the live preview does not load zod.
 */
import { z } from "zod";
import { LIMITS } from "../limits.ts";
import { isServiceUrl, MUSIC_MESSAGES, MUSIC_SERVICE_IDS, MUSIC_SERVICES_MAX, musicService, type MusicServiceLink } from "../music.ts";
import { isWebUrl } from "../url-rule.ts";

export * from "../music.ts";

/**
 * The services list as the dialog and the API take it: an ordered array of { service, url }, one
 * entry per service, 1 to 8. The url is trimmed; each must be the service's own address.
 */
export const MusicServicesSchema = z
  .array(
    z.object(
      {
        service: z.enum(MUSIC_SERVICE_IDS, MUSIC_MESSAGES.unknownService),
        url: z.string(MUSIC_MESSAGES.urlRequired).trim().min(1, MUSIC_MESSAGES.urlRequired).max(LIMITS.URL_MAX, MUSIC_MESSAGES.urlInvalid),
      },
      MUSIC_MESSAGES.servicesRequired,
    ),
    MUSIC_MESSAGES.servicesRequired,
  )
  .min(1, MUSIC_MESSAGES.servicesRequired)
  .max(MUSIC_SERVICES_MAX, MUSIC_MESSAGES.tooMany)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((entry, i) => {
      const info = musicService(entry.service)!;
      if (seen.has(entry.service)) ctx.addIssue({ code: "custom", path: [i, "service"], message: MUSIC_MESSAGES.duplicate });
      seen.add(entry.service);
      if (!isWebUrl(entry.url)) ctx.addIssue({ code: "custom", path: [i, "url"], message: MUSIC_MESSAGES.urlInvalid });
      else if (!isServiceUrl(info, entry.url)) ctx.addIssue({ code: "custom", path: [i, "url"], message: MUSIC_MESSAGES.notService(info.label) });
    });
  })
  .transform((list) => list.map((e) => ({ service: e.service, url: e.url }) as MusicServiceLink));

