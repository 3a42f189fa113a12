import { resolveServerLocale, type SupportedLocale } from '../i18n/locales.js';
import type { Logger } from '../logging/logger.js';
import type { SettingsRepository } from '../settings/settingsRepository.js';

/**
 * The language of what Veil posts in a server rather than to one reader (mod-log posts, released answers, alerts):
 * the server's `/settings language`, else Discord's `guild_locale` as the interaction gave it. A settings read that
 * fails leaves `guild_locale`: a post is never held back for its language.
 */
export async function serverLocaleOf(
	guildId: string,
	guildLocale: string | null | undefined,
	deps: { settings: SettingsRepository; log: Logger },
): Promise<SupportedLocale> {
	const setting = await deps.settings.getRecent(guildId).then(
		(settings) => settings.locale,
		(error: unknown) => {
			deps.log.warn({ err: error }, "could not read the server's language setting; using its guild_locale");
			return undefined;
		},
	);
	return resolveServerLocale(guildLocale, setting);
}
