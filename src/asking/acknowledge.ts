import { MessageFlags } from 'discord.js';
import type { InteractionContext } from '../discord/command.js';
import type { AskComponents, AskInteraction, AskRequest } from './askComponents.js';
import { lastSeenLinked, linkFirstAnswer, mustLinkFirst, type LinkGate } from './linkGate.js';

/** A gate that let the member ask, and the deferral of their ask, on its way to Discord. */
export interface Acknowledged {
	readonly gate: LinkGate;
	readonly deferring: Promise<unknown>;
}

/**
 * Acknowledges an ask as soon as Veil may: the deferral fixes the answer's visibility, and a member who must link
 * first gets an ephemeral answer instead, so normally the gate's store read comes first. A member this process last
 * found linked is deferred at once while their link is read again: the read still decides, but the
 * acknowledgement does not wait for the store. Should it find them unlinked after all (they unlinked since), the
 * deferral is taken back and the link-first answer goes to them alone.
 *
 * @returns the gate and the deferral, or undefined once the member has had the link-first answer
 */
export async function acknowledgeAsk(
	interaction: AskInteraction,
	request: AskRequest,
	gate: LinkGate | Promise<LinkGate>,
	components: AskComponents,
	ctx: InteractionContext,
): Promise<Acknowledged | undefined> {
	const defer = () => interaction.deferReply({ flags: request.ephemeral ? MessageFlags.Ephemeral : undefined });
	// Whoever awaits the deferral meets its failure; until then it must not count as unhandled.
	const deferNow = () => {
		const deferring = defer();
		deferring.catch(() => undefined);
		return deferring;
	};
	const early = gate instanceof Promise && lastSeenLinked(interaction.user.id) ? deferNow() : undefined;
	let read: LinkGate;
	try {
		read = await gate;
	} catch (error) {
		// The failure is answered in the deferral's place (the router edits it), so the deferral must have landed.
		await early;
		throw error;
	}
	if (!mustLinkFirst(read)) return { gate: read, deferring: early ?? deferNow() };
	const answer = linkFirstAnswer(components.linkButton());
	if (!early) {
		await interaction.reply(answer);
		return undefined;
	}
	await early;
	ctx.log.info('a member seen linked was not; the early deferral is taken back');
	const { content, components: rows, allowedMentions } = answer;
	if (request.ephemeral) {
		await interaction.editReply({ content, components: rows, allowedMentions });
		return undefined;
	}
	// A public "thinking…" must not turn into a public link-first answer. Once edited it is an ordinary message,
	// which can go, and the follow-up after it then keeps its own (ephemeral) flag.
	await interaction.editReply({ content: '…', allowedMentions });
	await interaction.deleteReply();
	await interaction.followUp(answer);
	return undefined;
}
