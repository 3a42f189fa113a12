import { ActionRowBuilder, ButtonBuilder, ButtonStyle, MessageFlags } from 'discord.js';
import type { LinkedAccount } from '../accounts/accountRepository.js';
import type { InteractionContext } from '../app/context.js';
import { customIds } from '../app/customIds.js';
import { NO_MENTIONS } from '../discord/mentions.js';
import { resolveLocale } from '../i18n/locales.js';
import { t } from '../i18n/translate.js';
import { lastSeenOf } from './lastSeen.js';

/** What REQUIRE_LINK's gate found: off, or on with the member's link (or none). */
export type LinkGate = { readonly required: false } | { readonly required: true; readonly account: LinkedAccount | undefined };

/**
 * The one store read allowed before the acknowledgement: it decides whether the answer is the ephemeral
 * link-first one, which must be chosen before a deferral fixes the answer's visibility. The store bounds it.
 */
export async function readLinkGate(userId: string, ctx: InteractionContext): Promise<LinkGate> {
	if (!ctx.config.requireLink) return { required: false };
	return { required: true, account: await findLink(userId, ctx) };
}

/** True when the gate turns the member away. */
export function mustLinkFirst(gate: LinkGate): boolean {
	return gate.required && gate.account === undefined;
}

/**
 * The ephemeral answer to a member who must link first, with the button that opens /link's form, in the member's
 * language (`interaction.locale`).
 */
export function linkFirstAnswer(discordLocale: string | null | undefined) {
	const locale = resolveLocale(discordLocale);
	const linkButton = new ButtonBuilder()
		.setCustomId(customIds.link.open.build())
		.setLabel(t(locale, 'members.ask.linkButton'))
		.setStyle(ButtonStyle.Primary);
	return {
		content: t(locale, 'members.ask.linkFirst'),
		components: [new ActionRowBuilder<ButtonBuilder>().addComponents(linkButton)],
		flags: MessageFlags.Ephemeral as const,
		allowedMentions: NO_MENTIONS,
	};
}

/** With REQUIRE_LINK off, a link is used when there is one, and its absence or a store fault is no reason to fail. */
export async function findLinkQuietly(userId: string, ctx: InteractionContext): Promise<LinkedAccount | undefined> {
	try {
		return await findLink(userId, ctx);
	} catch (error) {
		ctx.log.warn({ err: error }, 'could not read the link; asking with the service key alone');
		return undefined;
	}
}

/** The member's link, as this process then last saw it (see LastSeen). */
async function findLink(userId: string, ctx: InteractionContext): Promise<LinkedAccount | undefined> {
	const account = await ctx.accounts.find(userId);
	lastSeenOf(ctx).sawLink(userId, account !== undefined);
	return account;
}
