import { MessageFlags } from 'discord.js';
import type { InteractionContext } from '../discord/command.js';
import { buildContents } from '../conversations/buildContents.js';
import { judgeResponse } from '../generation/safetyVerdict.js';
import { candidateText } from '../generation/generationResponse.js';
import type { AskComponents, AskInteraction, AskRequest } from './askComponents.js';
import { hideAnswer } from './hideAnswer.js';
import { findLinkQuietly, linkFirstAnswer, mustLinkFirst, type LinkGate } from './linkGate.js';
import { showAnswer } from './showAnswer.js';
import { askOutcomeOf, observeGeneration, recordAsk } from '../operations/metrics.js';

/**
 * The one path of every ask (/ask, a follow-up, Ask Veil), once the gate has read the member's link: the
 * link-first answer, or a deferral (which fixes the answer's visibility), the generation call, the verdict, and the
 * shown answer with its Follow up button or the hidden-answer notice and flag.
 */
export async function answerAsk(...args: Parameters<typeof askOnce>): Promise<void> {
	// Every ask is counted once, by how it ended (see the README's metrics).
	await askOnce(...args).then(recordAsk, (error: unknown) => {
		recordAsk(askOutcomeOf(error));
		throw error;
	});
}

async function askOnce(
	interaction: AskInteraction,
	request: AskRequest,
	gate: LinkGate,
	components: AskComponents,
	ctx: InteractionContext,
): Promise<'shown' | 'hidden' | 'refused'> {
	if (mustLinkFirst(gate)) {
		await interaction.reply(linkFirstAnswer(components.linkButton()));
		return 'refused';
	}
	const deferral = await interaction.deferReply({ flags: request.ephemeral ? MessageFlags.Ephemeral : undefined, withResponse: true });
	// An ephemeral notice cannot be replied to; a release of its flag goes to the member alone, by DM.
	const noticeMessageId = request.ephemeral ? undefined : (deferral.interaction.responseMessageId ?? undefined);
	const account = gate.required ? gate.account : await findLinkQuietly(interaction.user.id, ctx);

	const input = request.history ? buildContents(request.history, request.prompt) : request.prompt;
	ctx.log.debug(
		{ linked: account !== undefined, promptLength: request.prompt.length, turns: Array.isArray(input) ? input.length : 1 },
		'asking the model',
	);
	const started = performance.now();
	const response = await ctx.generation
		.generate(input, { credentials: account?.credentials, signal: ctx.signal })
		.finally(() => observeGeneration((performance.now() - started) / 1000));
	const verdict = judgeResponse(response);
	ctx.log.info({ verdict: verdict.kind, reasons: verdict.kind === 'hidden' ? verdict.reasons : undefined }, 'answer judged');

	if (verdict.kind === 'shown') {
		await showAnswer(interaction, verdict, request, components, ctx);
		return 'shown';
	}
	await hideAnswer(interaction, verdict, { prompt: request.prompt, text: candidateText(response), noticeMessageId, private: request.ephemeral }, components, ctx);
	return 'hidden';
}
