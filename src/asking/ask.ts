import type { AdmittedAsk } from '../admission/admission.js';
import type { Ticket } from '../admission/askLine.js';
import { DailyLimitError } from '../admission/admissionErrors.js';
import type { InteractionContext } from '../app/context.js';
import { blockedPromptMessage, judgeWithRules, matchContextOf, screenPrompt } from '../automod/applyRules.js';
import { contentsFor, type Turn } from '../conversations/buildContents.js';
import { MessageFlags } from 'discord.js';
import { answerAlone } from '../replies/answerMessages.js';
import { automodRefusalOf } from '../discord/automodRefusal.js';
import { readAttachments } from '../files/readAttachments.js';
import { t } from '../i18n/translate.js';
import type { GenerationResponse } from '../generation/generationResponse.js';
import type { Verdict } from '../generation/safetyVerdict.js';
import { countAsk, heldReasonOf, type AskProgress, type UsageOutcome } from '../usage/usageOutcome.js';
import { readQuestion, type AskInteraction, type AskRequest, type Gathered, type Question } from './askRequest.js';
import { linkOf, mustLinkFirst, readLinkGate, type LinkGate } from '../accounts/accountRepository.js';
import { linkFirstAnswer } from '../app/linkFirst.js';
import { heldByDiscordAutomod } from '../replies/discordAutomodHold.js';
import { showAnswer } from './showAnswer.js';
import { hideAnswer } from './hideAnswer.js';
import { cancelledElsewhere, cancelRow, endCancelled, offerCancel } from './askCancel.js';
import { showRegenerated } from './regenerate.js';
import type { RunningAsk } from '../admission/runningAsks.js';

/** An ask that admission let through: what it asks, the member's link as the gate found it, its place in line. */
interface Admitted {
	readonly question: Question;
	readonly gate: LinkGate;
	readonly ticket: Ticket;
}

/**
 * The one path of every ask (/ask, a follow-up, Ask Veil), in the order its steps run: admit → acknowledge →
 * gather → screen → generate → judge → deliver. Each refusal before the acknowledgement is an answer only the
 * member sees, and nothing goes upstream before it. Every ask is counted once, by how it ended (as a turn by message
 * is: usage/usageOutcome.ts).
 */
export async function answerAsk(interaction: AskInteraction, request: AskRequest, ctx: InteractionContext): Promise<AskEnd> {
	const progress: AskProgress = { countsForMember: false };
	const where = { guildId: ctx.place.guildId, channelId: interaction.channelId, memberId: interaction.user.id };
	const outcome = await askOnce(interaction, request, ctx, progress).catch((error: unknown) => {
		countAsk(ctx, where, { error }, progress);
		throw error;
	});
	countAsk(ctx, where, outcome, progress);
	return outcome;
}

/** How an ask ended: as its usage counts it, or cancelled by its asker. */
export type AskEnd = UsageOutcome | 'cancelled';

async function askOnce(interaction: AskInteraction, request: AskRequest, outer: InteractionContext, progress: AskProgress): Promise<AskEnd> {
	const admission = outer.admission.admit(interaction.user.id);
	// Cancel stops the ask through its signal: the wait in line and the call upstream both take it.
	const running = outer.runningAsks.start(interaction.id, outer.signal);
	const ctx: InteractionContext = { ...outer, signal: running.signal };
	try {
		const admitted = await admit(interaction, request, admission, ctx, progress);
		if (!admitted) return 'refused:link';
		const question = await acknowledge(interaction, admission, admitted, running, ctx);
		running.stage = 'gathering';
		const gathered = await gather(interaction, question, admitted.gate, ctx);
		if (await screen(interaction, gathered, ctx)) return 'refused:other';
		const response = await generate(interaction, admission, gathered, running, ctx);
		if (await cancelledElsewhere(interaction.id, running, ctx)) return await endCancelled(interaction, admission, running, progress, ctx);
		return await deliver(interaction, await judge(interaction, response, gathered, ctx), response, gathered, ctx);
	} catch (error) {
		if (running.cancelled) return await endCancelled(interaction, admission, running, progress, ctx);
		throw error;
	} finally {
		admission.end();
		outer.runningAsks.end(interaction.id);
	}
}

/**
 * Admission (the member's one ask, their pace and the breaker, checked in memory by `ctx.admission.admit`), then
 * what decides an answer only the member sees, before any deferral fixes the answer's visibility: the link (the one
 * bounded store read), what the request refers to, the daily limit and a place in line. Undefined: refused.
 */
async function admit(
	interaction: AskInteraction,
	request: AskRequest,
	admission: AdmittedAsk,
	ctx: InteractionContext,
	progress: AskProgress,
): Promise<Admitted | undefined> {
	const [question, gate, limit] = await Promise.all([
		readQuestion(interaction, request, ctx),
		readLinkGate(interaction.user.id, ctx),
		ctx.place.dailyLimit(ctx),
	]);
	if (mustLinkFirst(gate)) {
		await interaction.reply(linkFirstAnswer(ctx.locale));
		return undefined;
	}
	const ticket = admission.enterLine(ctx.signal);
	try {
		await admission.countDaily({ guildId: ctx.place.guildId, limit, exempt: false });
	} catch (error) {
		// A store that fails lets the ask through: the limit is a brake on cost, not a reason to stop answering.
		if (error instanceof DailyLimitError) throw error;
		ctx.log.warn({ err: error }, 'could not count the ask against the daily limit; asking without it');
	}
	progress.countsForMember = true;
	admission.started();
	return { question, gate, ticket };
}

/**
 * The one acknowledgement: "thinking…", public or only for the member, as the question asks (Discord may make it
 * ephemeral outside Veil's servers: the ask then counts as private). Then asks that arrived since and still wait for
 * theirs go first (admission/acksFirst.ts), and the ask waits for a generation slot.
 */
async function acknowledge(
	interaction: AskInteraction,
	admission: AdmittedAsk,
	{ question, ticket }: Admitted,
	running: RunningAsk,
	ctx: InteractionContext,
): Promise<Question> {
	if (question.regenerating && interaction.isButton()) {
		// The answer shown stays on screen until the new one takes its place: nothing else is said of the wait.
		await interaction.deferUpdate();
		await admission.acknowledged(ctx.signal);
		await ticket.granted;
		return question;
	}
	const ephemeral = await ctx.place.defer(interaction, question.ephemeral);
	if (ephemeral !== question.ephemeral) ctx.log.info('Discord made the answer ephemeral: the ask counts as private');
	await admission.acknowledged(ctx.signal);
	await waitInLine(interaction, ticket, ctx, running);
	// Pressed in another process while it waited: it goes no further (see askCancel.ts).
	if (await cancelledElsewhere(interaction.id, running, ctx)) throw running.cancelFromElsewhere();
	return ephemeral === question.ephemeral ? question : { ...question, ephemeral };
}

/**
 * Waits for the ask's turn, after its deferral. While it waits, its "thinking…" message says how many asks are
 * ahead and, once the line has timed an answer, about how long that is (as often as the line tells, at most every
 * 2 s); an ask that did not wait hears nothing. An edit still on
 * its way when the turn comes is waited for, so it cannot land over the answer. An edit that fails only costs the
 * news: the answer still comes.
 */
export async function waitInLine(interaction: AskInteraction, ticket: Ticket, ctx: InteractionContext, running?: RunningAsk): Promise<void> {
	if (!ticket.waitedOnEntry) return ticket.granted;
	const { locale } = ctx;
	// The asker may take their ask out of the line: its news carries Cancel.
	const components = running ? [cancelRow(interaction.id, interaction.user.id, locale)] : [];
	if (running) running.offeredCancel = true;
	let latest: number | undefined;
	let editing: Promise<void> | undefined;
	let done = false;
	const edit = async (): Promise<void> => {
		while (latest !== undefined && !done) {
			const ahead = latest;
			latest = undefined;
			try {
				const place = ahead === 0 ? t(locale, 'members.admission.waitingNext') : t(locale, 'members.admission.waiting', { count: ahead });
				// Worked out when the place is told, so it moves with the line and costs no edit of its own.
				const seconds = ctx.admission.line.estimateSeconds(ahead);
				const content = seconds === undefined ? place : `${place}\n${t(locale, 'members.admission.waitEstimate', { seconds })}`;
				await interaction.editReply({ content, components });
			} catch (error) {
				ctx.log.warn({ err: error, ahead }, 'could not tell a waiting ask its place in line');
			}
		}
		editing = undefined;
	};
	ticket.watch((ahead) => {
		latest = ahead;
		editing ??= edit();
	});
	try {
		await ticket.granted;
	} finally {
		done = true;
		await editing;
	}
}

/**
 * What the answer is made of, read in a generation slot (at most ASK_CONCURRENCY asks hold a file's bytes at once):
 * the files, the place's instructions, the server's AutoMod rules, and the link where REQUIRE_LINK did not read it.
 */
async function gather(interaction: AskInteraction, question: Question, gate: LinkGate, ctx: InteractionContext): Promise<Gathered> {
	const threadParentId = ctx.automod.threadParentOf(interaction.id);
	const [files, instructions, matcher, account] = await Promise.all([
		question.attachments ? readAttachments(question.attachments, ctx.config) : question.keptFiles,
		ctx.place.instructions(ctx, threadParentId),
		// Never rejects, and waits a bounded time at most.
		ctx.automod.rulesFor(ctx.place.guildId, interaction.appPermissions),
		linkOf(interaction.user.id, gate, ctx),
	]);
	const rules = matcher && { server: matcher, context: matchContextOf(interaction, threadParentId) };
	return { question, files, instructions, account, rules };
}

/**
 * The server's AutoMod rules read what would go upstream (a quoted message is in the prompt, files too) before it
 * goes; a rule that blocks refuses the ask, to the member alone. True when refused.
 */
async function screen(interaction: AskInteraction, { question, files, rules }: Gathered, ctx: InteractionContext): Promise<boolean> {
	if (!rules) return false;
	const text = [question.prompt, ...(files ?? []).map((file) => file.text)].join('\n');
	const blocked = await screenPrompt(rules.server, text, interaction, rules.context, ctx);
	if (!blocked) return false;
	const content = blockedPromptMessage(blocked, ctx.locale);
	// A regeneration's message is the answer shown: the refusal goes to the member apart from it.
	if (question.regenerating) await interaction.followUp({ content, flags: MessageFlags.Ephemeral });
	else await answerAlone(interaction, question.ephemeral, { content });
	return true;
}

/** The generation call, under the breaker, with the conversation's turns and the instructions first when there are any. */
async function generate(
	interaction: AskInteraction,
	admission: AdmittedAsk,
	{ question, files, instructions, account }: Gathered,
	running: RunningAsk,
	ctx: InteractionContext,
): Promise<GenerationResponse> {
	const asked: Turn | string = files ? { role: 'user', text: question.prompt, files } : question.prompt;
	// A lone ask goes without roles; standing instructions go first, as turns, and then every turn has a role.
	const input = contentsFor(question.history, asked, instructions);
	ctx.log.debug(
		{ linked: account !== undefined, promptLength: question.prompt.length, turns: Array.isArray(input) ? input.length : 1 },
		'asking the model',
	);
	// A slow answer offers Cancel; a quick one never hears of it (and costs no edit).
	const offer = question.regenerating ? undefined : offerCancel(interaction, running, ctx);
	try {
		return await admission.callUpstream(() => {
			running.stage = 'generating';
			return ctx.generation.generate(input, { credentials: account?.credentials, signal: ctx.signal });
		});
	} finally {
		// From here Cancel is too late; an offer still on its way lands before the answer does.
		if (!running.cancelled) running.stage = 'delivering';
		await offer?.stop();
	}
}

/** The model's verdict (shown only when every rating is NEGLIGIBLE), then the server's rules on the answer's text. */
function judge(interaction: AskInteraction, response: GenerationResponse, { rules }: Gathered, ctx: InteractionContext): Promise<Verdict> {
	return judgeWithRules(response, rules, interaction, ctx);
}

/**
 * The answer in the deferral's place with its Follow up button, or the held answer's notice and flag. An answer
 * Discord's AutoMod refuses to post (a server that did not add Veil applies its rules to a member's install) is held
 * like one Veil holds: it is never sent again.
 */
async function deliver(
	interaction: AskInteraction,
	verdict: Verdict,
	response: GenerationResponse,
	gathered: Gathered,
	ctx: InteractionContext,
): Promise<UsageOutcome> {
	if (verdict.kind === 'shown') {
		// Every ask is counted in the metrics; a line for each shown one is for debugging only.
		ctx.log.debug({ verdict: verdict.kind }, 'answer judged');
		const show = gathered.question.regenerating ? showRegenerated : showAnswer;
		const refused = await show(interaction, verdict, gathered, ctx).then(() => undefined, automodRefusalOf);
		if (refused === undefined) return 'shown';
		ctx.log.info({ blocked: refused.blocked }, "Discord's AutoMod refused to post the answer: it is held");
		return deliver(interaction, heldByDiscordAutomod(response), response, gathered, ctx);
	}
	ctx.log.info({ verdict: verdict.kind, reasons: verdict.reasons }, 'answer judged');
	await hideAnswer(interaction, verdict, response, gathered, ctx);
	return `held:${heldReasonOf(verdict.reasons)}`;
}
