import { ButtonStyle, ComponentType, MessageFlags, type JSONEncodable } from 'discord.js';
import type { AdmittedAsk } from '../admission/admission.js';
import type { RunningAsk } from '../admission/runningAsks.js';
import { button } from '../app/command.js';
import type { InteractionContext } from '../app/context.js';
import { customIds } from '../app/customIds.js';
import { UserInputError } from '../errors/veilError.js';
import { sentence, t } from '../i18n/translate.js';
import { sentAsIs } from '../discord/sentAsIs.js';
import type { SupportedLocale } from '../i18n/locales.js';
import type { ButtonRow } from './showAnswer.js';
import type { AskInteraction } from './askRequest.js';

/**
 * Cancel, on the message of an ask that waits in line or is being generated, for its asker alone (the id carries
 * who asked). Discord sends a press to the shard the ask came through, so it normally reaches the process running
 * the ask, which stops it at once through the ask's signal: out of the line, or the call upstream aborted. A press
 * that finds no ask here (the ask runs in another process, or its process restarted) leaves a record in the store,
 * which the process running it reads when its ask leaves the line and again before it delivers (only asks whose
 * message showed Cancel read it). Either way the message says "cancelled" at once.
 */
export const cancelPress = button({
	id: customIds.ask.cancel,
	async handle(interaction, [askId, askerId], ctx) {
		if (interaction.user.id !== askerId) throw new UserInputError({ answer: sentence('answers.cancel.notAsker'), code: 'not_asker' });
		const outcome = ctx.runningAsks.cancel(askId);
		if (outcome.kind === 'tooLate') {
			await interaction.reply({ content: t(ctx.locale, 'answers.cancel.tooLate'), flags: MessageFlags.Ephemeral });
			return;
		}
		if (outcome.kind === 'unknown') await ctx.runningAsks.recordCancel(askId);
		ctx.log.info({ askId, where: outcome.kind === 'unknown' ? 'elsewhere' : 'here' }, 'ask cancelled by its asker');
		await interaction.update({ content: t(ctx.locale, 'answers.cancel.cancelled'), components: [] });
	},
});

/** What {@link offerCancel} started: stop it once the call is over, and an edit on its way lands first. */
export interface CancelOffer {
	stop(): Promise<void>;
}

/**
 * Once a generation has run `cancelOfferMs` (and its message does not carry Cancel already, from its wait in line),
 * one edit puts Cancel on its "thinking…" message. A quick answer never hears of it, and costs no edit. An
 * infinite wait offers it never.
 */
export function offerCancel(interaction: AskInteraction, running: RunningAsk, ctx: InteractionContext): CancelOffer | undefined {
	if (running.offeredCancel || !Number.isFinite(ctx.admission.cancelOfferMs)) return undefined;
	let editing: Promise<void> | undefined;
	const timer = setTimeout(() => {
		running.offeredCancel = true;
		editing = interaction
			.editReply({ content: t(ctx.locale, 'answers.cancel.generating'), components: [cancelRow(interaction.id, interaction.user.id, ctx.locale)] })
			.then(
				() => undefined,
				(error: unknown) => ctx.log.warn({ err: error }, 'could not offer Cancel on a slow answer'),
			);
	}, ctx.admission.cancelOfferMs);
	return {
		async stop() {
			clearTimeout(timer);
			await editing;
		},
	};
}

/** Whether Cancel was pressed for this ask in another process; only an ask whose message showed Cancel looks. */
export async function cancelledElsewhere(askId: string, running: RunningAsk, ctx: InteractionContext): Promise<boolean> {
	if (!running.offeredCancel || running.cancelled) return false;
	try {
		const recorded = await ctx.runningAsks.cancelRecorded(askId);
		if (recorded) running.cancelFromElsewhere();
		return recorded;
	} catch (error) {
		ctx.log.warn({ err: error }, 'could not look for a Cancel pressed elsewhere');
		return false;
	}
}

/**
 * Ends a cancelled ask: nothing flagged, nothing saved. Out of the line (or before its call) it is not counted: the
 * daily count is given back; once the service was reached, it counts. Its message says "cancelled" (again, after any
 * news of the line still on its way: the press said it first).
 */
export async function endCancelled(
	interaction: AskInteraction,
	admission: AdmittedAsk,
	running: RunningAsk,
	progress: { countsForMember: boolean },
	ctx: InteractionContext,
): Promise<'cancelled'> {
	ctx.log.info({ stage: running.cancelledAt, counted: running.reached }, 'ask cancelled');
	if (!running.reached) {
		// Not counted: neither in the daily limit nor in the member's usage.
		progress.countsForMember = false;
		await admission.giveBackDaily().catch((error: unknown) => ctx.log.warn({ err: error }, 'could not give back the daily count of a cancelled ask'));
	}
	if (interaction.deferred || interaction.replied)
		await interaction
			.editReply({ content: t(ctx.locale, 'answers.cancel.cancelled'), components: [] })
			.catch((error: unknown) => ctx.log.warn({ err: error }, 'could not say an ask was cancelled'));
	return 'cancelled';
}

/** The row of Cancel, on the message of an ask that waits in line or is being generated, for its asker alone. */
export function cancelRow(askId: string, askerId: string, locale: SupportedLocale): JSONEncodable<ButtonRow> {
	return sentAsIs({
		type: ComponentType.ActionRow,
		components: [
			{
				type: ComponentType.Button,
				style: ButtonStyle.Danger,
				label: t(locale, 'answers.buttons.cancel'),
				custom_id: customIds.ask.cancel.build(askId, askerId),
			},
		],
	});
}
