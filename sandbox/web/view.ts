import { PermissionFlagsBits } from 'discord.js';
import type { DiscordEmulator, EmulatorMessage } from '../discord/emulator.js';
import { memberPermissionsIn } from '../discord/permissions.js';
import type { Person, SandboxWorld } from '../world.js';

/** A channel in the page's sidebar: the server's channels this person can see, then their DM with Veil. */
export interface ChannelView {
	id: string;
	name: string;
	kind: 'text' | 'thread' | 'dm';
	topic: string;
}

/** One message as the page draws it. */
export interface MessageView {
	id: string;
	author: { id: string; name: string; bot: boolean };
	content: string;
	timestamp: string;
	edited: boolean;
	embeds: unknown[];
	components: unknown[];
	/** The files Veil attached (the CSV of /usage server's Export), each at the local Discord's CDN. */
	attachments: Array<{ filename: string; url: string; size: number }>;
	/** Only the person who used the command sees it. */
	ephemeral: boolean;
	/** Veil's "thinking…" state: a deferral no edit has replaced yet. */
	thinking: boolean;
	/** "Mia used /ask", for a message that answers an interaction. */
	usedBy?: { name: string; command: string };
	replyTo?: { author: string; content: string };
}

/** The commands people used, by interaction id, for the "used /ask" line above an answer. */
export type CommandLabels = Map<string, string>;

export function channelsFor(discord: DiscordEmulator, world: SandboxWorld, person: Person): ChannelView[] {
	const visible = world.channels.filter((channel) => canView(world, person, channel.id));
	const threads = discord.threads().filter((thread) => thread.parent_id !== undefined && canView(world, person, thread.parent_id));
	return [
		...visible.map((c) => ({ id: c.id, name: c.name, kind: 'text' as const, topic: c.topic })),
		...threads.map((t) => ({
			id: t.id,
			name: t.name,
			kind: 'thread' as const,
			topic: 'A thread Veil started from an answer: mention @Veil or reply to it.',
		})),
		{ id: discord.dmChannelId(person.user), name: discord.bot.username, kind: 'dm' as const, topic: 'Your direct messages with Veil.' },
	];
}

/** Whether the person may see the channel: Discord's own permission algorithm, overwrites included. */
export function canView(world: SandboxWorld, person: Person, channelId: string): boolean {
	const channel = world.guild.channels.find((c) => c.id === channelId);
	const member = world.guild.members.find((m) => m.user?.id === person.user.id);
	if (!channel || !member) return false;
	return (memberPermissionsIn(world.guild, { id: person.user.id, roles: member.roles }, channel) & PermissionFlagsBits.ViewChannel) !== 0n;
}

export function messagesFor(discord: DiscordEmulator, person: Person, channelId: string, labels: CommandLabels): MessageView[] {
	return discord
		.channelMessages(channelId, { all: true })
		.filter((m) => !m.deleted && m.origin !== 'stub' && visibleTo(m, person))
		.map((m) => toView(discord, m, person, labels));
}

function visibleTo(message: EmulatorMessage, person: Person): boolean {
	if ((message.flags & 64) === 0) return true;
	const user = message.interaction_metadata?.user as { id?: string } | undefined;
	return user?.id === person.user.id;
}

function displayName(user: { username: string; global_name?: string | null }): string {
	return user.global_name ?? user.username;
}

function toView(discord: DiscordEmulator, m: EmulatorMessage, person: Person, labels: CommandLabels): MessageView {
	const view: MessageView = {
		id: m.id,
		author: { id: m.author.id, name: displayName(m.author), bot: m.author.bot === true },
		content: m.content,
		timestamp: m.timestamp,
		edited: m.edited_timestamp !== null,
		embeds: m.embeds,
		components: m.components,
		attachments: m.attachments.map(({ filename, url, size }) => ({ filename, url, size })),
		ephemeral: (m.flags & 64) !== 0,
		thinking: m.deferred === true,
	};
	const metadata = m.interaction_metadata as { id?: string; user?: { username: string; global_name?: string | null } } | undefined;
	if (metadata?.user && metadata.id) view.usedBy = { name: displayName(metadata.user), command: labels.get(metadata.id) ?? 'Veil' };
	const referenced = m.message_reference?.message_id ? discord.message(m.message_reference.message_id) : undefined;
	if (referenced && !referenced.deleted) {
		const content = visibleTo(referenced, person) ? referenced.content.slice(0, 120) : 'A message only they can see';
		view.replyTo = { author: displayName(referenced.author), content };
	}
	return view;
}
