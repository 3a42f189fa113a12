import type { Ticket } from '../admission/askLine.js';
import type { InteractionContext } from '../app/context.js';
import { t } from '../i18n/translate.js';
import type { AskInteraction } from './askRequest.js';

/**
 * Waits for the ask's turn, after its deferral. While it waits, its "thinking…" message says how many asks are
 * ahead (as often as the line tells, at most every 2 s); an ask that did not wait hears nothing. An edit still on
 * its way when the turn comes is waited for, so it cannot land over the answer. An edit that fails only costs the
 * news: the answer still comes.
 */
export async function waitInLine(interaction: AskInteraction, ticket: Ticket, ctx: InteractionContext): Promise<void> {
	if (!ticket.waitedOnEntry) return ticket.granted;
	const { locale } = ctx;
	let latest: number | undefined;
	let editing: Promise<void> | undefined;
	let done = false;
	const edit = async (): Promise<void> => {
		while (latest !== undefined && !done) {
			const ahead = latest;
			latest = undefined;
			try {
				const content = ahead === 0 ? t(locale, 'members.admission.waitingNext') : t(locale, 'members.admission.waiting', { count: ahead });
				await interaction.editReply({ content });
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
