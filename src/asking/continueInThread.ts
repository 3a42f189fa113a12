import {
	ButtonStyle,
	ComponentType,
	DiscordAPIError,
	MessageFlags,
	PermissionFlagsBits,
	Routes,
	ThreadAutoArchiveDuration,
	type APIButtonComponentWithCustomId,
	type ButtonInteraction,
	type PermissionsBitField,
} from 'discord.js';
import { z } from 'zod';
import type { InteractionContext } from '../app/context.js';
import { customIds } from '../app/customIds.js';
import { findConversation } from './askRequest.js';
import { NO_MENTIONS } from '../discord/mentions.js';
import { UserInputError } from '../errors/veilError.js';
import type { SupportedLocale } from '../i18n/locales.js';
import { sentence, t } from '../i18n/translate.js';
import { truncate } from '../replies/truncate.js';
import { talkConversationId } from '../talk/messageTurn.js';

/** What Veil needs to start a thread from an answer and speak there. */
const THREAD_PERMISSIONS = PermissionFlagsBits.CreatePublicThreads | PermissionFlagsBits.SendMessagesInThreads;

/** Discord's longest thread name. */
const THREAD_NAME_MAX = 100;

/**
 * Continue in a thread, on a public answer in a Veil server where Veil may start public threads and send in them
 * (the interaction's `app_permissions` say so, with no request); none elsewhere.
 */
export function continueInThreadButton(
	conversationId: string,
	where: { readonly ephemeral: boolean; readonly guildId: string | null; readonly appPermissions: Readonly<PermissionsBitField> | null },
	locale: SupportedLocale,
): APIButtonComponentWithCustomId | undefined {
	if (where.ephemeral || where.guildId === null || !where.appPermissions?.has(THREAD_PERMISSIONS)) return undefined;
	return {
		type: ComponentType.Button,
		style: ButtonStyle.Secondary,
		emoji: { name: '🧵' },
		label: t(locale, 'talk.thread.button'),
		custom_id: customIds.ask.thread.build(conversationId),
	};
}

const threadSchema = z.object({ id: z.string() });

/**
 * The press: for the member who asked (their question names the thread, so it is theirs to make public), a public
 * thread from the answer's message, named after the question, with the conversation so far carried over and Veil's
 * first message saying how to go on. The answer to the press is the member's alone.
 */
export async function continueInThread(interaction: ButtonInteraction, [conversationId]: readonly [string], ctx: InteractionContext): Promise<void> {
	const conversation = await findConversation(conversationId, interaction.user.id, ctx);
	if (conversation.ownerId !== interaction.user.id) throw new UserInputError({ answer: sentence('talk.thread.notAsker'), code: 'not_asker' });
	const guildId = ctx.place.guildId;
	if (guildId === null || !interaction.appPermissions?.has(THREAD_PERMISSIONS)) throw cannot();
	await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	const question = conversation.turns.filter((turn) => turn.role === 'user').at(-1)?.text ?? t(ctx.locale, 'talk.thread.button');
	const name = truncate(question.replace(/\s+/g, ' ').trim(), THREAD_NAME_MAX) || t(ctx.locale, 'talk.thread.button');
	let threadId: string;
	try {
		const thread = threadSchema.parse(
			await ctx.client.rest.post(Routes.threads(interaction.channelId, interaction.message.id), {
				body: { name, auto_archive_duration: ThreadAutoArchiveDuration.OneDay },
			}),
		);
		threadId = thread.id;
	} catch (error) {
		if (error instanceof DiscordAPIError && error.code === 160004)
			throw new UserInputError({ answer: sentence('talk.thread.already'), code: 'thread_exists' });
		if (error instanceof DiscordAPIError && (error.code === 50024 || error.code === 50013 || error.code === 50001)) throw cannot();
		throw error;
	}
	ctx.log.info({ threadId }, 'an answer continues in a thread');
	// What was said carries over: the thread's conversation starts as the answer's.
	await ctx.conversations
		.save(guildId, { id: talkConversationId({ channelId: threadId }), ownerId: interaction.user.id, ephemeral: false, turns: conversation.turns })
		.catch((error: unknown) => ctx.log.error({ err: error }, 'could not carry the conversation over to the thread'));
	await ctx.client.rest.post(Routes.channelMessages(threadId), {
		body: { content: t(ctx.locale, 'talk.thread.welcome', { veil: `<@${ctx.client.user?.id ?? ''}>` }), allowed_mentions: NO_MENTIONS },
	});
	await interaction.editReply({ content: t(ctx.locale, 'talk.thread.started', { thread: `<#${threadId}>` }) });
}

function cannot(): UserInputError {
	return new UserInputError({ answer: sentence('talk.thread.cannot'), code: 'thread_not_allowed' });
}
