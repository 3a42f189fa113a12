import { MessageFlags } from 'discord.js';
import type { InteractionContext } from '../discord/command.js';
import { buildContents } from '../conversations/buildContents.js';
import { judgeResponse } from '../generation/safetyVerdict.js';
import { candidateText } from '../generation/generationResponse.js';
import type { AskComponents, AskInteraction, AskRequest } from './askComponents.js';
import { hideAnswer } from './hideAnswer.js';
import { findLinkQuietly, linkFirstAnswer, mustLinkFirst, type LinkGate } from './linkGate.js';
import { showAnswer } from './showAnswer.js';

/**
 * The one path of every ask (/ask, a follow-up, Ask Veil), once the gate has read the member's link: the
 * link-first answer, or a deferral (which fixes the answer's visibility), the generation call, the verdict, and the
 * shown answer with its Follow up button or the hidden-answer notice and flag.
 */
export async function answerAsk(
	interaction: AskInteraction,
	request: AskRequest,
	gate: LinkGate,
	components: AskComponents,
	ctx: InteractionContext,
): Promise<void> {
	if (mustLinkFirst(gate)) {
		await interaction.reply(linkFirstAnswer(components.linkButton()));
		return;
	}
	// The generation call starts beside the deferral rather than after it: the deferral's round trip to Discord is
	// off the answer's path. A deferral that fails stops the call at once.
	const deferring = interaction.deferReply({ flags: request.ephemeral ? MessageFlags.Ephemeral : undefined, withResponse: true });
	const stop = new AbortController();
	const account = gate.required ? gate.account : await findLinkQuietly(interaction.user.id, ctx);
	const input = request.history ? buildContents(request.history, request.prompt) : request.prompt;
	ctx.log.debug(
		{ linked: account !== undefined, promptLength: request.prompt.length, turns: Array.isArray(input) ? input.length : 1 },
		'asking the model',
	);
	const generating = ctx.generation.generate(input, { credentials: account?.credentials, signal: AbortSignal.any([ctx.signal, stop.signal]) });
	// Its failure is met below, once the deferral has settled; until then it must not count as unhandled.
	generating.catch(() => undefined);
	let deferral: Awaited<typeof deferring>;
	try {
		deferral = await deferring;
	} catch (error) {
		stop.abort(error);
		throw error;
	}
	// An ephemeral notice cannot be replied to; a release of its flag goes to the member alone, by DM.
	const noticeMessageId = request.ephemeral ? undefined : (deferral.interaction.responseMessageId ?? undefined);
	const response = await generating;
	const verdict = judgeResponse(response);
	ctx.log.info({ verdict: verdict.kind, reasons: verdict.kind === 'hidden' ? verdict.reasons : undefined }, 'answer judged');

	if (verdict.kind === 'shown') {
		await showAnswer(interaction, verdict, request, components, ctx);
		return;
	}
	await hideAnswer(interaction, verdict, { prompt: request.prompt, text: candidateText(response), noticeMessageId, private: request.ephemeral }, components, ctx);
}
