import type { AdmittedAsk } from '../admission/admission.js';
import { DailyLimitError } from '../admission/admissionErrors.js';
import type { InteractionContext } from '../app/context.js';
import { lastSeenOf } from './lastSeen.js';

/**
 * The server's `asks_per_day`, read beside the member's link before the acknowledgement (its refusal is only for
 * the member, so it must come before the deferral), at most a few seconds old (see SettingsRepository.asksPerDay).
 * A store that fails lets the ask through: the limit is a brake on cost, not a reason to stop answering, and the
 * log says so.
 */
export async function readDailyLimit(guildId: string, ctx: InteractionContext): Promise<number | undefined> {
	try {
		const limit = await ctx.settings.asksPerDay(guildId);
		lastSeenOf(ctx).sawLimit(guildId, limit !== undefined);
		return limit;
	} catch (error) {
		ctx.log.warn({ err: error }, 'could not read the daily limit; asking without it');
		return undefined;
	}
}

/** Counts the ask in the store, or throws the daily limit's refusal; a store that fails lets it through. */
export async function countDailyAsk(
	admitted: AdmittedAsk,
	ask: { guildId: string | null; limit: number | undefined; exempt: boolean },
	ctx: InteractionContext,
): Promise<void> {
	try {
		await admitted.countDaily(ask);
	} catch (error) {
		if (error instanceof DailyLimitError) throw error;
		ctx.log.warn({ err: error }, 'could not count the ask against the daily limit; asking without it');
	}
}
