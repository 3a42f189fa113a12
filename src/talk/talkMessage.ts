import { z } from 'zod';
import type { AttachmentRef } from '../files/readAttachments.js';

/**
 * Whether a raw MESSAGE_CREATE talks to Veil: a member's (not a bot's, not a webhook's) message in a DM with Veil or
 * mentioning it (a reply with "ping on reply" to Veil's message mentions it too). It runs on every message of every
 * server Veil is in, so it reads the parsed packet's fields in place, allocating nothing, before any schema.
 */
export function talksToVeil(d: unknown, botId: string): boolean {
	if (typeof d !== 'object' || d === null) return false;
	const message = d as { author?: { bot?: unknown; id?: unknown }; webhook_id?: unknown; guild_id?: unknown; mentions?: unknown };
	if (message.author?.bot === true || message.author?.id === botId || message.webhook_id !== undefined) return false;
	if (message.guild_id === undefined) return true;
	const { mentions } = message;
	if (!Array.isArray(mentions)) return false;
	for (const user of mentions) if ((user as { id?: unknown } | null)?.id === botId) return true;
	return false;
}

const userSchema = z.object({ id: z.string(), username: z.string(), global_name: z.string().nullish(), bot: z.boolean().optional() });

/** What Veil reads of a message that talks to it. */
export const talkMessageSchema = z.object({
	id: z.string(),
	channel_id: z.string(),
	guild_id: z.string().optional(),
	author: userSchema,
	member: z.object({ roles: z.array(z.string()), nick: z.string().nullish(), communication_disabled_until: z.string().nullish() }).optional(),
	content: z.string(),
	mentions: z.array(userSchema),
	mention_roles: z.array(z.string()).optional(),
	attachments: z.array(z.object({ filename: z.string(), url: z.string(), size: z.number(), content_type: z.string().optional() })),
	message_reference: z.object({ message_id: z.string().optional() }).optional(),
	referenced_message: z.object({ author: z.object({ id: z.string() }) }).nullish(),
});

export type TalkMessage = z.infer<typeof talkMessageSchema>;

/** The name a mention of this user is written as: their display name. */
function nameOf(user: z.infer<typeof userSchema>): string {
	return user.global_name ?? user.username;
}

/**
 * The member's message as a prompt: mentions of Veil removed; other members, roles and channels written as names
 * (`@Ada`, `@role`, `#channel`), so nothing in it can ping when it is quoted back. Role and channel names are looked
 * up only when the message names one.
 */
export function promptOf(
	message: TalkMessage,
	botId: string,
	names: { roles: ReadonlyMap<string, string>; channels: ReadonlyMap<string, string> },
): string {
	const users = new Map(message.mentions.map((user) => [user.id, nameOf(user)]));
	return message.content
		.replace(/<@!?(\d+)>/g, (whole, id: string) => (id === botId ? '' : `@${users.get(id) ?? 'someone'}`))
		.replace(/<@&(\d+)>/g, (whole, id: string) => `@${names.roles.get(id) ?? 'role'}`)
		.replace(/<#(\d+)>/g, (whole, id: string) => `#${names.channels.get(id) ?? 'channel'}`)
		.replace(/@(everyone|here)\b/g, '@\u200b$1')
		.replace(/[ \t]{2,}/g, ' ')
		.trim();
}

/** The role and channel ids a message names, to look up before writing its prompt. */
export function namedIds(content: string): { roles: string[]; channels: string[] } {
	return {
		roles: [...content.matchAll(/<@&(\d+)>/g)].map((match) => match[1] as string),
		channels: [...content.matchAll(/<#(\d+)>/g)].map((match) => match[1] as string),
	};
}

/** The files attached to the message, as an ask takes them. */
export function attachmentsOf(message: TalkMessage): AttachmentRef[] | undefined {
	const refs = message.attachments.map((file) => ({ name: file.filename, url: file.url, size: file.size, contentType: file.content_type ?? null }));
	return refs.length > 0 ? refs : undefined;
}
