import { MessageFlags } from 'discord.js';
import { button } from '../app/command.js';
import { askReviewRow } from '../app/place.js';
import type { InteractionContext } from '../app/context.js';
import { customIds } from '../app/customIds.js';
import { newConversationId } from '../conversations/conversationRepository.js';
import { filesToKeep } from '../conversations/keepFiles.js';
import { UserInputError } from '../errors/veilError.js';
import type { Verdict } from '../generation/safetyVerdict.js';
import { sentence, t } from '../i18n/translate.js';
import { hiddenNotice } from '../replies/answerMessages.js';
import { MESSAGE_LIMIT } from '../replies/splitReply.js';
import { truncate } from '../replies/truncate.js';
import { MAX_VERSIONS } from './showAnswer.js';
import { versionMessage } from './answerVersions.js';
import { continueInThreadButton } from './continueInThread.js';
import type { AskInteraction, Gathered } from './askRequest.js';

type ShownVerdict = Extract<Verdict, { kind: 'shown' }>;
type HiddenVerdict = Extract<Verdict, { kind: 'hidden' }>;

/** How long a regeneration's claim holds: past any generation (its time-out and retries), and a stale press after it. */
const REGENERATE_CLAIM_MS = 10 * 60_000;

/**
 * Regenerate: the shown version's turn again, for its asker alone, by the one path every ask takes (link, admission
 * and the line, the daily limits it counts against, files, instructions, AutoMod, the verdict). A claim in the store
 * on the message's newest version makes two presses at once, in one process or two, one call: the second is told
 * the first is under way. A regeneration that is not shown gives the claim back, so the member may press again.
 */
export function regeneratePress(answerAsk: (interaction: AskInteraction, request: RegenerateRequest, ctx: InteractionContext) => Promise<string>) {
	return button({
		id: customIds.ask.regenerate,
		async handle(interaction, [shownId, newestId], ctx) {
			const key = `regenerate:${ctx.place.scope}:${newestId}`;
			const claim = interaction.id;
			if ((await ctx.runningAsks.claimRegeneration(key, claim, REGENERATE_CLAIM_MS)) !== undefined)
				throw new UserInputError({ answer: sentence('answers.regenerate.busy'), code: 'regenerate_in_progress' });
			let outcome = 'error';
			try {
				outcome = await answerAsk(interaction, { source: 'regenerate', shownId, newestId }, ctx);
			} finally {
				// Kept once shown: a press still on its way from before the new version names the old newest, and is one.
				if (outcome !== 'shown') await ctx.runningAsks.releaseRegeneration(key, claim).catch(() => undefined);
			}
		},
	});
}

export interface RegenerateRequest {
	readonly source: 'regenerate';
	readonly shownId: string;
	readonly newestId: string;
}

/**
 * A cleared regeneration takes the place of the version shown, in the message that carries the buttons: saved as a
 * conversation of its own (the same turns before it, so Follow up continues from whichever version is on screen)
 * that lists the versions kept before it, at most {@link MAX_VERSIONS} in all, the oldest dropped first. The save is
 * waited for, so ◀ ▶ find it at once, in any process.
 */
export async function showRegenerated(
	interaction: AskInteraction,
	verdict: ShownVerdict,
	gathered: Gathered,
	ctx: InteractionContext,
): Promise<void> {
	const { question, files } = gathered;
	const earlier = (question.regenerating?.versions ?? []).slice(-(MAX_VERSIONS - 1));
	const id = newConversationId();
	const kept = files ? { files: filesToKeep(files, question.prompt, verdict.text) } : {};
	await ctx.conversations.save(ctx.place.scope, {
		id,
		ownerId: interaction.user.id,
		ephemeral: question.ephemeral,
		turns: [
			...(question.history ?? []),
			{ role: 'user', text: question.savedPrompt, by: interaction.user.id, ...kept },
			{ role: 'model', text: verdict.text },
		],
		versions: earlier,
	});
	const where = { ephemeral: question.ephemeral, guildId: ctx.place.guildId, appPermissions: interaction.appPermissions };
	const thread = continueInThreadButton(id, where, ctx.locale);
	await interaction.editReply(versionMessage(verdict.text, verdict.cutShort, { ids: [...earlier, id], shownId: id }, ctx.locale, thread));
}

/**
 * A held regeneration leaves the version shown as it was; the member alone hears why, as any held answer's notice
 * says, with its reference. Its flag is kept and announced as usual (see hideAnswer).
 */
export async function tellHeldRegeneration(
	interaction: AskInteraction,
	verdict: HiddenVerdict,
	flagId: string | undefined,
	ctx: InteractionContext,
): Promise<void> {
	const reviewers = ctx.place.guildId !== null ? 'server' : ctx.config.operatorGuildId === undefined ? 'none' : 'operators';
	const notice = hiddenNotice(verdict, flagId, reviewers, ctx.locale);
	const content = truncate(`${t(ctx.locale, 'answers.regenerate.heldKept')}\n${notice.content}`, MESSAGE_LIMIT);
	// Where its flag is kept, the asker may ask for a review of it, as on any held notice.
	const flagServer = ctx.place.guildId ?? ctx.config.operatorGuildId;
	const components = flagId === undefined || flagServer === undefined ? [] : [askReviewRow(flagServer, flagId, ctx.locale)];
	await interaction.followUp({ content, components, flags: MessageFlags.Ephemeral });
}
