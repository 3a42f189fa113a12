import { ActionRowBuilder, MessageFlags, type ButtonBuilder } from 'discord.js';
import type { LinkedAccount } from '../accounts/accountRepository.js';
import type { InteractionContext } from '../discord/command.js';
import { NO_MENTIONS } from '../discord/mentions.js';
import { messages } from '../answers/messages.js';

/** What REQUIRE_LINK's gate found: off, or on with the member's link (or none). */
export type LinkGate = { readonly required: false } | { readonly required: true; readonly account: LinkedAccount | undefined };

/** Members this process last found linked, newest last; a hint for the acknowledgement, never a decision. */
const seenLinked = new Set<string>();
const SEEN_LINKED_MAX = 10_000;

/**
 * The one store read allowed before the acknowledgement: it decides whether the answer is the ephemeral
 * link-first one, which must be chosen before a deferral fixes the answer's visibility. The store bounds it.
 */
export async function readLinkGate(userId: string, ctx: InteractionContext): Promise<LinkGate> {
	if (!ctx.config.requireLink) return { required: false };
	const account = await ctx.accounts.find(userId);
	seenLinked.delete(userId);
	if (account) {
		seenLinked.add(userId);
		if (seenLinked.size > SEEN_LINKED_MAX) seenLinked.delete(seenLinked.values().next().value as string);
	}
	return { required: true, account };
}

/** Whether the last read of this member's link in this process found one (see acknowledgeAsk). */
export function lastSeenLinked(userId: string): boolean {
	return seenLinked.has(userId);
}

/** True when the gate turns the member away. */
export function mustLinkFirst(gate: LinkGate): boolean {
	return gate.required && gate.account === undefined;
}

/** The ephemeral answer to a member who must link first, with the button that opens the link form. */
export function linkFirstAnswer(linkButton: ButtonBuilder) {
	return {
		content: messages.ask.linkFirst,
		components: [new ActionRowBuilder<ButtonBuilder>().addComponents(linkButton)],
		flags: MessageFlags.Ephemeral as const,
		allowedMentions: NO_MENTIONS,
	};
}

/** With REQUIRE_LINK off, a link is used when there is one, and its absence or a store fault is no reason to fail. */
export async function findLinkQuietly(userId: string, ctx: InteractionContext): Promise<LinkedAccount | undefined> {
	try {
		return await ctx.accounts.find(userId);
	} catch (error) {
		ctx.log.warn({ err: error }, 'could not read the link; asking with the service key alone');
		return undefined;
	}
}
