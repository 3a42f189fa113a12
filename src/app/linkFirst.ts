import { ActionRowBuilder, ButtonBuilder, ButtonStyle, MessageFlags } from 'discord.js';
import type { SupportedLocale } from '../i18n/locales.js';
import { t } from '../i18n/translate.js';
import { customIds } from './customIds.js';

/** What a member who must link first is told, with the button that opens /link's form: by an ask and by a turn. */
export function linkFirstMessage(locale: SupportedLocale) {
	const linkButton = new ButtonBuilder()
		.setCustomId(customIds.link.open.build())
		.setLabel(t(locale, 'members.ask.linkButton'))
		.setStyle(ButtonStyle.Primary);
	return {
		content: t(locale, 'members.ask.linkFirst'),
		components: [new ActionRowBuilder<ButtonBuilder>().addComponents(linkButton).toJSON()],
	};
}

/** The link-first answer to an interaction: to the member alone. */
export function linkFirstAnswer(locale: SupportedLocale) {
	return { ...linkFirstMessage(locale), flags: MessageFlags.Ephemeral as const };
}
