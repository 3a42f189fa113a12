/**
 * What Discord delivers of a message to an app without the Message Content intent (see docs/discord.md and Discord's
 * gateway/you-might-not-need-a-privileged-intent): `content`, `embeds`, `attachments`, `components` and `poll` are
 * empty, except in the app's own messages, in DMs with it, in messages that @mention it, and in replies to its
 * ordinary (non-interaction) messages sent with "ping on reply". A reply to an interaction's answer is not one.
 */

/** Gateway intents the local Discord reads. */
export const GUILD_MESSAGES_INTENT = 1 << 9;
export const DIRECT_MESSAGES_INTENT = 1 << 12;
export const MESSAGE_CONTENT_INTENT = 1 << 15;

/** The message events the Guild Messages intent (in a server) or Direct Messages intent (in a DM) gates. */
export const MESSAGE_EVENTS: ReadonlySet<string> = new Set(['MESSAGE_CREATE', 'MESSAGE_UPDATE', 'MESSAGE_DELETE', 'MESSAGE_DELETE_BULK']);

interface WireMessage {
	guild_id?: unknown;
	content?: unknown;
	author?: { id?: unknown };
	mentions?: Array<{ id?: unknown }>;
	referenced_message?: WireMessage | null;
	interaction_metadata?: unknown;
}

/** Whether an app without the Message Content intent sees this message's content. */
export function contentVisibleTo(botId: string, message: WireMessage): boolean {
	if (message.author?.id === botId) return true;
	if (typeof message.guild_id !== 'string') return true;
	const content = typeof message.content === 'string' ? message.content : '';
	if (content.includes(`<@${botId}>`) || content.includes(`<@!${botId}>`)) return true;
	const referenced = message.referenced_message;
	const pinged = message.mentions?.some((user) => user.id === botId) === true;
	return referenced?.author?.id === botId && referenced.interaction_metadata === undefined && pinged;
}

/** The intent needed to receive a message event: Direct Messages for one without a server, else Guild Messages. */
export function messageIntentOf(d: unknown): number {
	return typeof (d as { guild_id?: unknown } | null)?.guild_id === 'string' ? GUILD_MESSAGES_INTENT : DIRECT_MESSAGES_INTENT;
}

/** The message as an app without Message Content gets it: a copy with the content fields emptied where Discord does. */
export function asSeenWithoutContent(botId: string, d: unknown): unknown {
	if (typeof d !== 'object' || d === null || contentVisibleTo(botId, d as WireMessage)) return d;
	const { poll: _poll, ...rest } = d as Record<string, unknown>;
	return { ...rest, content: '', embeds: [], attachments: [], components: [] };
}
