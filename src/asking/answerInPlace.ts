import { MessageFlags, RateLimitError } from 'discord.js';
import type { InteractionContext } from '../app/context.js';
import type { OutgoingMessage } from '../replies/answerMessages.js';
import type { AskInteraction, FollowUpRow } from './askRequest.js';
import { editOriginal } from '../discord/internals/originalResponse.js';

/**
 * Puts an answer in the deferral's place. When Discord holds the edit route longer than Veil waits (a long rate
 * limit, see discord/rateLimits.ts), the answer goes by the follow-up route, which Discord limits apart: the member
 * gets the answer itself rather than an apology for it.
 */
export async function answerInPlace(
	interaction: AskInteraction,
	message: OutgoingMessage & { components?: FollowUpRow[] },
	ephemeral: boolean,
	ctx: InteractionContext,
): Promise<void> {
	try {
		// An attachment (a long answer's reply.md) goes by discord.js, which uploads it; text alone goes straight.
		if (message.files?.length) await interaction.editReply(message);
		else await editOriginal(interaction, message);
	} catch (error) {
		if (!(error instanceof RateLimitError)) throw error;
		ctx.log.warn({ retryAfterMs: error.retryAfter }, 'the edit route is rate limited: the answer goes as a follow-up');
		await interaction.followUp({ ...message, flags: ephemeral ? MessageFlags.Ephemeral : undefined });
	}
}
