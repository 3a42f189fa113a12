import { MessageFlags } from 'discord.js';
import type { AdmittedAsk } from '../admission/admission.js';
import type { InteractionContext } from '../app/context.js';
import { NO_MENTIONS } from '../discord/mentions.js';
import { deferOriginal } from '../discord/internals/originalResponse.js';
import { refuseAlone, type Refusal } from '../discord/refuseAlone.js';
import { AT_ONCE, type Acknowledgement } from './acknowledgement.js';
import type { AskInteraction } from './askRequest.js';
import { EarlyDeferral } from './earlyDeferral.js';
import { lastSeenOf } from './lastSeen.js';

/** What the choice reads: where the ask was made, and whether the daily limit spares the member. */
export interface AcknowledgementChoice {
	/** For /ask, whose reads can refuse it only with the link-first answer or the daily limit: its visibility. */
	readonly early: { readonly ephemeral: boolean } | undefined;
	readonly guildId: string | null;
	readonly exempt: boolean;
	/** Outside Veil's servers Discord may decide the answer's visibility (see deferOriginal). */
	readonly outside: boolean;
}

/**
 * The early deferral for a member this process last found linked, where no daily limit was last seen to stop them;
 * the ordinary one otherwise. The early one keeps a place in line from the moment it is sent.
 */
export function acknowledge(
	interaction: AskInteraction,
	admitted: AdmittedAsk,
	choice: AcknowledgementChoice,
	ctx: InteractionContext,
): Acknowledgement {
	const { early, guildId, exempt, outside } = choice;
	const lastSeen = lastSeenOf(ctx);
	if (early && lastSeen.linked(interaction.user.id) && (exempt || guildId === null || !lastSeen.limited(guildId))) {
		admitted.enterLine(ctx.signal);
		return new EarlyDeferral(interaction, early.ephemeral, outside);
	}
	return new DeferAfterReads(interaction, outside);
}

/** The deferral sent once the reads have allowed the ask: a refusal before it is an ephemeral reply. */
class DeferAfterReads implements Acknowledgement {
	readonly #interaction: AskInteraction;
	readonly #readVisibility: boolean;
	#deferring: Promise<boolean> | undefined;

	constructor(interaction: AskInteraction, readVisibility: boolean) {
		this.#interaction = interaction;
		this.#readVisibility = readVisibility;
	}

	sent(): Promise<void> {
		return AT_ONCE;
	}

	defer(ephemeral: boolean): Promise<unknown> {
		this.#deferring = deferOriginal(this.#interaction, ephemeral, this.#readVisibility);
		return this.#deferring;
	}

	landed(): Promise<boolean> {
		if (!this.#deferring) throw new Error('the ask has not been deferred');
		return this.#deferring;
	}

	async refuse(refusal: Refusal): Promise<void> {
		if (this.#deferring) {
			await refuseAlone(this.#interaction, await this.#deferring, refusal);
			return;
		}
		const { content, components = [] } = refusal;
		await this.#interaction.reply({ content, components, flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS });
	}

	orRefused(signal: AbortSignal): AbortSignal {
		return signal;
	}

	settled(): Promise<unknown> {
		// Its deferral is awaited where it is sent: nothing after it runs before it has settled.
		return AT_ONCE;
	}
}
