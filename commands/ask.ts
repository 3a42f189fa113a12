import {
	ActionRowBuilder,
	ApplicationIntegrationType,
	ButtonBuilder,
	InteractionContextType,
	MessageFlags,
	SlashCommandBuilder,
	type ChatInputCommandInteraction,
} from 'discord.js';
import type { LinkedAccount } from '../src/accounts/accountRepository.js';
import type { Command, InteractionContext } from '../src/discord/command.js';
import { UserInputError } from '../src/answers/veilError.js';
import type { FlagRecord } from '../src/moderation/flagRepository.js';
import { candidateText } from '../src/generation/generationResponse.js';
import { postFlagToModlog } from '../src/moderation/modlog.js';
import { answerMessages } from '../src/replies/answerMessages.js';
import { hiddenNotice } from '../src/replies/hiddenNotice.js';
import { NO_MENTIONS } from '../src/discord/mentions.js';
import { judgeResponse, type Verdict } from '../src/generation/safetyVerdict.js';
import { FLAGGED_PREFIXES } from './flagged.js';
import { linkButton } from './link.js';
import { messages } from '../src/answers/messages.js';

const PROMPT_MAX_LENGTH = 4000;

const data = new SlashCommandBuilder()
	.setName('ask')
	.setDescription('Ask the model a question')
	.setContexts(InteractionContextType.Guild)
	.setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
	.addStringOption((option) =>
		option.setName('prompt').setDescription('Your question').setRequired(true).setMinLength(1).setMaxLength(PROMPT_MAX_LENGTH),
	)
	.addBooleanOption((option) => option.setName('private').setDescription('Only you see the answer'))
	.toJSON();

async function execute(interaction: ChatInputCommandInteraction, ctx: InteractionContext): Promise<void> {
	if (!interaction.inGuild()) throw new UserInputError(messages.ask.serversOnly);
	const prompt = interaction.options.getString('prompt', true);
	const isPrivate = interaction.options.getBoolean('private') ?? false;
	if (prompt.trim() === '') throw new UserInputError(messages.ask.emptyPrompt);
	// Discord counts characters, not UTF-16 units: an emoji is one.
	if ([...prompt].length > PROMPT_MAX_LENGTH) throw new UserInputError(messages.ask.promptTooLong(PROMPT_MAX_LENGTH));

	// The one store read allowed before the acknowledgement: it decides whether the answer is the ephemeral
	// link-first one, and the store bounds it to a second.
	let account: LinkedAccount | undefined;
	if (ctx.config.requireLink) {
		account = await ctx.accounts.find(interaction.user.id);
		if (!account) {
			await interaction.reply(linkFirstAnswer());
			return;
		}
	}

	const deferral = await interaction.deferReply({ flags: isPrivate ? MessageFlags.Ephemeral : undefined, withResponse: true });
	const noticeMessageId = isPrivate ? undefined : (deferral.interaction.responseMessageId ?? undefined);
	if (!ctx.config.requireLink) account = await findLinkQuietly(interaction.user.id, ctx);

	ctx.log.debug({ linked: account !== undefined, promptLength: prompt.length }, 'asking the model');
	const response = await ctx.generation.generate(prompt, { credentials: account?.credentials, signal: ctx.signal });
	const verdict = judgeResponse(response);
	ctx.log.info({ verdict: verdict.kind, reasons: verdict.kind === 'hidden' ? verdict.reasons : undefined }, 'answer judged');

	if (verdict.kind === 'shown') {
		const [first, ...rest] = answerMessages(verdict.text, verdict.cutShort);
		if (first) await interaction.editReply(first);
		for (const message of rest) {
			await interaction.followUp({ ...message, flags: isPrivate ? MessageFlags.Ephemeral : undefined });
		}
		return;
	}
	await answerHidden(interaction, verdict, { prompt, text: candidateText(response), noticeMessageId }, ctx);
}

async function answerHidden(
	interaction: ChatInputCommandInteraction<'cached' | 'raw'>,
	verdict: Extract<Verdict, { kind: 'hidden' }>,
	asked: { prompt: string; text: string; noticeMessageId: string | undefined },
	ctx: InteractionContext,
): Promise<void> {
	let flag: FlagRecord | undefined;
	try {
		flag = await ctx.flags.create({
			guildId: interaction.guildId,
			channelId: interaction.channelId,
			userId: interaction.user.id,
			noticeMessageId: asked.noticeMessageId,
			prompt: asked.prompt,
			text: asked.text,
			ratings: verdict.ratings,
			finishReason: verdict.finishReason,
			blockReason: verdict.blockReason,
			model: ctx.config.generationModel,
		});
	} catch (error) {
		// The member still learns the answer was hidden; the moderators lose this one, and the log says so.
		ctx.log.error({ err: error }, 'could not store the flag of a hidden reply');
	}
	try {
		await interaction.editReply(hiddenNotice(verdict, flag?.id));
	} finally {
		// The moderators hear of the flag whatever became of the member's notice (an expired token, a 5xx).
		if (flag) await postFlagToModlog(flag, { client: ctx.client, settings: ctx.settings, log: ctx.log, viewPrefix: FLAGGED_PREFIXES.view });
	}
}

function linkFirstAnswer() {
	return {
		content: messages.ask.linkFirst,
		components: [
			new ActionRowBuilder<ButtonBuilder>().addComponents(
				linkButton(messages.ask.linkButton),
			),
		],
		flags: MessageFlags.Ephemeral as const,
		allowedMentions: NO_MENTIONS,
	};
}

/** With REQUIRE_LINK off, a link is used when there is one, and its absence or a store fault is no reason to fail. */
async function findLinkQuietly(userId: string, ctx: InteractionContext): Promise<LinkedAccount | undefined> {
	try {
		return await ctx.accounts.find(userId);
	} catch (error) {
		ctx.log.warn({ err: error }, 'could not read the link; asking with the service key alone');
		return undefined;
	}
}

export default { data, execute } satisfies Command;
