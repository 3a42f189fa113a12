import type { InteractionContext } from '../discord/command.js';
import { buildContents } from '../conversations/buildContents.js';
import { judgeResponse } from '../generation/safetyVerdict.js';
import { candidateText } from '../generation/generationResponse.js';
import type { AskComponents, AskInteraction, AskRequest } from './askComponents.js';
import { hideAnswer } from './hideAnswer.js';
import { acknowledgeAsk } from './acknowledge.js';
import { findLinkQuietly, type LinkGate } from './linkGate.js';
import { showAnswer } from './showAnswer.js';

/**
 * The one path of every ask (/ask, a follow-up, Ask Veil), with the gate's read of the member's link (done, or under
 * way): the link-first answer, or a deferral (which fixes the answer's visibility), the generation call, the
 * verdict, and the shown answer with its Follow up button or the hidden-answer notice and flag.
 */
export async function answerAsk(
	interaction: AskInteraction,
	request: AskRequest,
	gateReading: LinkGate | Promise<LinkGate>,
	components: AskComponents,
	ctx: InteractionContext,
): Promise<void> {
	const acknowledged = await acknowledgeAsk(interaction, request, gateReading, components, ctx);
	if (!acknowledged) return;
	const { gate, deferring } = acknowledged;
	// Nothing goes upstream before Discord has the acknowledgement.
	await deferring;
	const account = gate.required ? gate.account : await findLinkQuietly(interaction.user.id, ctx);
	const input = request.history ? buildContents(request.history, request.prompt) : request.prompt;
	ctx.log.debug(
		{ linked: account !== undefined, promptLength: request.prompt.length, turns: Array.isArray(input) ? input.length : 1 },
		'asking the model',
	);
	const response = await ctx.generation.generate(input, { credentials: account?.credentials, signal: ctx.signal });
	const verdict = judgeResponse(response);
	ctx.log.info({ verdict: verdict.kind, reasons: verdict.kind === 'hidden' ? verdict.reasons : undefined }, 'answer judged');

	if (verdict.kind === 'shown') {
		await showAnswer(interaction, verdict, request, components, ctx);
		return;
	}
	// An ephemeral notice cannot be replied to; a release of its flag goes to the member alone, by DM.
	const noticeMessageId = request.ephemeral ? undefined : await noticeMessageIdOf(interaction, ctx);
	await hideAnswer(interaction, verdict, { prompt: request.prompt, text: candidateText(response), noticeMessageId, private: request.ephemeral }, components, ctx);
}

/**
 * The id of the public "thinking…" message a hidden answer's notice replaces, which a release replies to. Asked of
 * Discord only for a hidden answer, rather than with every deferral; without it a release names the member instead.
 */
async function noticeMessageIdOf(interaction: AskInteraction, ctx: InteractionContext): Promise<string | undefined> {
	try {
		return (await interaction.fetchReply()).id;
	} catch (error) {
		ctx.log.warn({ err: error }, 'could not read the notice message; a release will not reply to it');
		return undefined;
	}
}
