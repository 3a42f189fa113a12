import { PermissionFlagsBits } from 'discord.js';
import type { InteractionContext } from '../app/context.js';
import { buildContents, type Turn } from '../conversations/buildContents.js';
import { readAttachments } from '../files/readAttachments.js';
import { holdByRule, judgeResponse } from '../generation/safetyVerdict.js';
import { blockedPromptMessage, holdingRule, matchContextOf, screenPrompt } from '../automod/applyRules.js';
import { candidateText } from '../generation/generationResponse.js';
import type { AskInteraction, AskRequest } from './askRequest.js';
import { countDailyAsk, readDailyLimit } from './dailyAsks.js';
import { hideAnswer } from './hideAnswer.js';
import { findLinkQuietly, linkFirstAnswer, mustLinkFirst, type LinkGate } from './linkGate.js';
import { showAnswer } from './showAnswer.js';
import { askPlaceOf } from './askContext.js';
import { waitInLine } from './waitInLine.js';
import type { Acknowledgement } from './acknowledgement.js';
import { acknowledge } from './acknowledge.js';
import { askOutcomeOf, observeGeneration, recordAsk, type AskOutcome } from '../operations/metrics.js';
import { RefusedAlone, VeilError } from '../errors/veilError.js';
import { resolveLocale } from '../i18n/locales.js';

/** What an ask reads before it is acknowledged (its conversation, its form's text, the member's link). */
type PrepareAsk = () => Promise<{ request: AskRequest; gate: LinkGate }>;

interface AskOptions {
	/**
	 * For an ask whose reads can refuse it only with the link-first answer or the daily limit (/ask): its
	 * visibility, so that a member this process last found linked is deferred before the reads (see EarlyDeferral).
	 */
	readonly early?: { readonly ephemeral: boolean };
}

/**
 * The one path of every ask (/ask, a follow-up, Ask Veil). Admission first, each refusal only to the member and
 * before anything goes upstream: one ask per member, their rate and the breaker before any read; then the reads
 * that decide the first answer (the link-first one, the server's daily limit) and a place in line. Then the
 * deferral (which fixes the answer's visibility), the wait in line, the generation call under the breaker, the
 * verdict, and the shown answer with its Follow up button or the hidden-answer notice and flag. An early deferral
 * (see EarlyDeferral) is still on its way while the reads and the generation call run; everything that edits it,
 * the router's error answer included, waits until Discord has it.
 */
export async function answerAsk(...args: Parameters<typeof askOnce>): Promise<void> {
	// Every ask is counted once, by how it ended (see the README's metrics).
	await askOnce(...args).then(recordAsk, (error: unknown) => {
		recordAsk(askOutcomeOf(error));
		throw error;
	});
}

async function askOnce(interaction: AskInteraction, prepare: PrepareAsk, ctx: InteractionContext, options: AskOptions = {}): Promise<AskOutcome> {
	const admitted = ctx.admission.admit(interaction.user.id);
	// Read (or found in memory) while the ask's own reads run; it never rejects, and waits a bounded time at most.
	const serverRules = ctx.automod.matcherFor(interaction.guildId, interaction.appPermissions);
	const threadParentId = ctx.automod.threadParentOf(interaction.id);
	let ack: Acknowledgement | undefined;
	try {
		// A server's own rules where it installed Veil; elsewhere the member's daily count, and answers only through
		// the interaction, whose visibility Discord may decide (see askContext).
		const place = askPlaceOf(interaction);
		const guildId = place.kind === 'server' ? place.guildId : null;
		const outside = guildId === null;
		const exempt = guildId !== null && (interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false);
		ack = acknowledge(interaction, admitted, { early: options.early, guildId, exempt, outside }, ctx);
		// An early deferral makes its round trip while the reads, and the generation call they allow, go on.
		await ack.sent();
		const [{ request, gate }, dailyLimit, instructions] = await Promise.all([
			prepare(),
			exempt ? undefined : guildId === null ? ctx.config.askUserPerDay : readDailyLimit(guildId, ctx),
			// A server's instructions are its own: none outside Veil's servers.
			guildId === null ? undefined : ctx.settings.instructions.forAsk(guildId, interaction.channelId, threadParentId),
		]).catch(refusedAlone);
		if (mustLinkFirst(gate)) {
			await ack.refuse(linkFirstAnswer(interaction.locale));
			return 'refused';
		}
		const ticket = admitted.enterLine(ctx.signal);
		await countDailyAsk(admitted, { guildId, limit: dailyLimit, exempt }, ctx).catch(refusedAlone);
		admitted.started();
		await ack.defer(request.ephemeral, ticket);
		await waitInLine(interaction, ticket, ctx);
		// Files are read once acknowledged (a download may take seconds), in a generation slot: at most ASK_CONCURRENCY
		// asks hold a file's bytes at once, whatever the line holds.
		const files = request.attachments && (await readAttachments(request.attachments, ctx.config).catch(refusedAlone));
		// The server's AutoMod rules read what would go upstream (the quoted message is in the prompt) before it goes.
		const matcher = await serverRules;
		const ruleContext = matcher && matchContextOf(interaction, threadParentId);
		const blocked =
			matcher &&
			ruleContext &&
			screenPrompt(matcher, [request.prompt, ...(files ?? []).map((file) => file.text)].join('\n'), interaction, ruleContext, ctx);
		if (blocked) {
			await ack.refuse({ content: blockedPromptMessage(blocked, resolveLocale(interaction.locale)) });
			return 'refused';
		}
		const account = gate.required ? gate.account : await findLinkQuietly(interaction.user.id, ctx);

		const asked: Turn | undefined = files && { role: 'user', text: request.prompt, files };
		// Standing instructions go first, as turns: a lone ask then goes with roles on every turn.
		const input =
			request.history || instructions !== undefined
				? buildContents(request.history ?? [], asked ?? request.prompt, instructions)
				: (asked ?? request.prompt);
		ctx.log.debug(
			{ linked: account !== undefined, promptLength: request.prompt.length, turns: Array.isArray(input) ? input.length : 1 },
			'asking the model',
		);
		const signal = ack.orRefused(ctx.signal);
		const response = await admitted.callUpstream(() => {
			const started = performance.now();
			return ctx.generation
				.generate(input, { credentials: account?.credentials, signal })
				.finally(() => observeGeneration((performance.now() - started) / 1000));
		});
		// Should Discord refuse the acknowledgement, the answer has nowhere to go (the call stops): the router logs it.
		const ephemeral = await ack.landed();
		// What Discord applied, not what was asked: an answer it made ephemeral is a private one from here on.
		const applied = ephemeral === request.ephemeral ? request : { ...request, ephemeral };
		if (ephemeral !== request.ephemeral) ctx.log.info('Discord made the answer ephemeral: the ask counts as private');
		let verdict = judgeResponse(response);
		const heldBy = verdict.kind === 'shown' && matcher && ruleContext ? holdingRule(matcher, verdict.text, ruleContext) : undefined;
		if (heldBy) verdict = holdByRule(response, heldBy);
		if (verdict.kind === 'shown') {
			// Every ask is counted in the metrics; a line for each shown one is for debugging only.
			ctx.log.debug({ verdict: verdict.kind }, 'answer judged');
			await showAnswer(interaction, verdict, asked ? { ...applied, files } : applied, ctx);
			return 'shown';
		}
		ctx.log.info({ verdict: verdict.kind, reasons: verdict.reasons }, 'answer judged');
		// An ephemeral notice cannot be replied to; a release of its flag goes to the member alone, by DM. Outside
		// Veil's servers the notice is the member's alone, and so is any release.
		const noticeMessageId = applied.ephemeral || outside ? undefined : await noticeMessageIdOf(interaction, ctx);
		await hideAnswer(
			interaction,
			verdict,
			{
				prompt: applied.prompt,
				files,
				text: candidateText(response),
				noticeMessageId,
				private: applied.ephemeral,
				quotedAuthor: applied.quotedAuthor,
			},
			ctx,
		);
		return 'hidden';
	} catch (error) {
		// The router answers in the acknowledgement's place, which it can only do once Discord has it.
		await ack?.settled();
		throw error;
	} finally {
		admitted.end();
	}
}

/**
 * What the reads, the daily count and the files refuse an ask with is for the member alone, even in a public
 * deferral's place: the router answers it so. Anything else is the router's to answer as it is.
 */
function refusedAlone(error: unknown): never {
	throw error instanceof VeilError ? new RefusedAlone(error) : error;
}

/**
 * The id of the public "thinking…" message a hidden answer's notice replaces, which a release replies to. Asked of
 * Discord only for a hidden answer rather than with every deferral; without it a release names the member instead.
 */
async function noticeMessageIdOf(interaction: AskInteraction, ctx: InteractionContext): Promise<string | undefined> {
	try {
		return (await interaction.fetchReply()).id;
	} catch (error) {
		ctx.log.warn({ err: error }, 'could not read the notice message; a release will not reply to it');
		return undefined;
	}
}
