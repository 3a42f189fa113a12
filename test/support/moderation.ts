import { type APIApplicationCommandInteractionDataOption, type APIUser, ApplicationCommandOptionType, PermissionFlagsBits } from 'discord.js';
import { expect } from 'vitest';
import { makeUser, PLAIN_MEMBER_PERMISSIONS, type EmulatorMessage, type GuildModel, type InteractionState } from '../../sandbox/discord/emulator.js';
import type { Harness } from './harness.js';
import { generationResponse, ratingsWith } from './upstreamStandIn.js';

// Shared steps of the moderation end-to-end tests: making flags through a real /ask, and driving the moderator
// commands and buttons as a given member with given permissions.

export const MODERATOR_PERMISSIONS = PLAIN_MEMBER_PERMISSIONS | PermissionFlagsBits.ManageMessages;
export const ADMIN_PERMISSIONS = PLAIN_MEMBER_PERMISSIONS | PermissionFlagsBits.ManageGuild;

export interface Where {
	readonly user: APIUser;
	readonly guild: GuildModel;
	/** Default: the guild's first channel. */
	readonly channelId?: string;
	/**
	 * Server-wide permissions, given to the member as a role of their own (see the emulator's memberPermissions).
	 * Default: whatever roles they hold; someone new holds a plain member's permissions.
	 */
	readonly permissions?: bigint;
	/** The member's Discord client language (`interaction.locale`). Default en-US. */
	readonly locale?: string;
}

export interface MadeFlag {
	readonly id: string;
	/** The member's /ask answer. */
	readonly answer: InteractionState;
}

/** A server of its own (#general, #mod-log) with a member and a moderator, so lists and channels never mix. */
export function freshServer(harness: Harness): { guild: GuildModel; member: Where; moderator: Where } {
	const guild = harness.discord.addGuild({ channels: [{ name: 'general' }, { name: 'mod-log' }] });
	return {
		guild,
		member: { user: makeUser('asker'), guild },
		moderator: { user: makeUser('moderator'), guild, permissions: MODERATOR_PERMISSIONS },
	};
}

const unsafe = (text: string) => ({ json: generationResponse({ text, candidateRatings: ratingsWith({ HARM_CATEGORY_HARASSMENT: 'MEDIUM' }) }) });

/** A flag made the way members make them: a linked member's /ask whose upstream answer the safety ratings hide. */
export async function makeFlag(harness: Harness, where: Where, asked: { prompt: string; text: string; private?: boolean }): Promise<MadeFlag> {
	await harness.linkMember(where.user.id);
	harness.upstream.scriptGeneration(unsafe(asked.text));
	const options: APIApplicationCommandInteractionDataOption[] = [{ type: ApplicationCommandOptionType.String, name: 'prompt', value: asked.prompt }];
	if (asked.private) options.push({ type: ApplicationCommandOptionType.Boolean, name: 'private', value: true });
	const answer = await harness.discord
		.slashCommand({ name: 'ask', options, user: where.user, guildId: where.guild.id, channelId: channelOf(where), locale: where.locale })
		.waitForAnswer();
	// The notice ends with the flag's reference, a code span, in whichever language the member reads.
	const id = /`([a-z0-9]+)`[^`]*$/.exec(answer.original?.content ?? '')?.[1];
	if (!id) throw new Error(`no flag reference in the /ask answer: ${answer.original?.content}`);
	return { id, answer };
}

/** Runs `/<name> <sub> [options]` and waits for its answer. */
export function runSubcommand(
	harness: Harness,
	where: Where,
	name: 'flagged' | 'settings',
	sub: string,
	options: APIApplicationCommandInteractionDataOption[] = [],
): Promise<InteractionState> {
	return harness.discord
		.slashCommand({
			name,
			options: [{ type: ApplicationCommandOptionType.Subcommand, name: sub, options } as APIApplicationCommandInteractionDataOption],
			user: where.user,
			guildId: where.guild.id,
			channelId: channelOf(where),
			memberPermissions: where.permissions,
			locale: where.locale,
		})
		.waitForAnswer();
}

export const viewFlag = (harness: Harness, where: Where, id: string) =>
	runSubcommand(harness, where, 'flagged', 'view', [{ type: ApplicationCommandOptionType.String, name: 'id', value: id }]);
export const listFlags = (harness: Harness, where: Where, page?: number) =>
	runSubcommand(
		harness,
		where,
		'flagged',
		'list',
		page === undefined ? [] : [{ type: ApplicationCommandOptionType.Integer, name: 'page', value: page }],
	);

/**
 * Clicks a button on the latest message in the channel that carries it (a stub message when none does). A decision
 * button (Release, Dismiss, Mark reviewed) opens its form: it is submitted with `reason` (default none), and what
 * the submit answered is returned.
 */
export async function click(harness: Harness, where: Where, customId: string, reason = ''): Promise<InteractionState> {
	const pressed = await harness.discord
		.button({
			customId,
			user: where.user,
			guildId: where.guild.id,
			channelId: channelOf(where),
			memberPermissions: where.permissions,
			locale: where.locale,
		})
		.waitForAnswer();
	const form = pressed.modal?.custom_id;
	if (!form?.startsWith('flagged:decide:')) return pressed;
	return harness.discord
		.modalSubmit({
			customId: form,
			fields: { reason },
			user: where.user,
			guildId: where.guild.id,
			channelId: channelOf(where),
			memberPermissions: where.permissions,
			locale: where.locale,
		})
		.waitForAnswer();
}

/** Everything a member could read in an answer: text, embeds, components, file names and bytes. */
export function readable(state: InteractionState): string {
	const message = state.original;
	if (!message) return '';
	return [
		message.content,
		JSON.stringify(message.embeds),
		JSON.stringify(message.components),
		...message.attachments.map((attachment) => attachment.filename),
		...message.files.map((file) => file.data.toString('utf8')),
		...state.followUps.map((followUp) => `${followUp.content}${JSON.stringify(followUp.embeds)}`),
	].join('\n');
}

/**
 * The last thing the member was told: after a button's deferred update an error comes as a message of its own,
 * leaving the message the button is on as it was.
 */
export function lastWords(state: InteractionState): string {
	const last = state.followUps.at(-1);
	return last ? messageText(last) : textOf(state);
}

/** What a message says: its content, or a case card's text (a Components V2 message has no content). */
export function messageText(message: EmulatorMessage | undefined): string {
	if (!message) return '';
	return (message.flags & (1 << 15)) !== 0 ? cardText(message) : message.content;
}

/** What an answer says: its content, or a case card's text. */
export function textOf(state: InteractionState): string {
	return messageText(state.original);
}

/** Every component of a message, nested ones included (a card's container, sections and their accessories, rows). */
export function componentsIn(components: unknown): Array<Record<string, unknown>> {
	if (!Array.isArray(components)) return [];
	return (components as Array<Record<string, unknown>>).flatMap((component) => [
		component,
		...componentsIn(component.components),
		...(component.accessory ? componentsIn([component.accessory]) : []),
	]);
}

/** The custom_ids of the buttons on the answer, a case card's included. */
export function customIdsOf(state: InteractionState): string[] {
	return buttonIdsIn(state.original);
}

/** The custom_ids of a message's buttons, wherever they sit. */
export function buttonIdsIn(message: Pick<EmulatorMessage, 'components'> | undefined): string[] {
	return componentsIn(message?.components).flatMap((component) =>
		typeof component.custom_id === 'string' && component.type === 2 ? [component.custom_id] : [],
	);
}

/** All the text of a Components V2 message (a case card): its Text Displays, in order. */
export function cardText(message: Pick<EmulatorMessage, 'components'> | undefined): string {
	return componentsIn(message?.components)
		.filter((component) => component.type === 10)
		.map((component) => String(component.content))
		.join('\n');
}

/** A case card: the message has the Components V2 flag, no content and no embeds, and one container. */
export function expectCard(message: EmulatorMessage | undefined): void {
	expect(message?.flags ?? 0).toSatisfy((flags: number) => (flags & (1 << 15)) !== 0);
	expect(message?.content).toBe('');
	expect(message?.embeds).toEqual([]);
	expect(message?.components.some((component) => component.type === 17)).toBe(true);
}

/** The list lines of a `/flagged list` answer. */
export function listLines(state: InteractionState): string[] {
	return (state.original?.embeds[0]?.description ?? '').split('\n').filter((line) => line !== '');
}

/** Checks an answer is only for the one who asked, and pings nobody. */
export function expectPrivateAndQuiet(state: InteractionState): void {
	expect(state.ephemeral).toBe(true);
	expect(state.original?.mentions ?? []).toEqual([]);
	expect(state.original?.mention_everyone).toBe(false);
}

/** Waits, a bounded number of times, until `check` holds; no timing is asserted. */
export async function pollUntil(check: () => Promise<boolean>, what: string, timeoutMs = 20_000, everyMs = 250): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (await check()) return;
		await new Promise((resolve) => setTimeout(resolve, everyMs));
	}
	throw new Error(`gave up after ${timeoutMs} ms waiting for ${what}`);
}

function channelOf(where: Where): string {
	return where.channelId ?? (where.guild.channels[0]?.id as string);
}
