import { MessageFlags, type ChatInputCommandInteraction } from 'discord.js';
import type { Command } from '../src/app/command.js';
import type { InteractionContext } from '../src/app/context.js';
import { t } from '../src/i18n/translate.js';
import { unlinkData } from './definitions/link.js';

async function execute(interaction: ChatInputCommandInteraction, ctx: InteractionContext): Promise<void> {
	// Forgotten first: should the removal fail, the next ask reads the link before it is acknowledged.
	const removed = await ctx.accounts.remove(interaction.user.id);
	if (removed) ctx.log.info('account unlinked');
	await interaction.reply({
		content: t(ctx.locale, removed ? 'members.link.unlinked' : 'members.link.nothingToUnlink'),
		flags: MessageFlags.Ephemeral,
	});
}

export default { data: unlinkData, execute } satisfies Command;
