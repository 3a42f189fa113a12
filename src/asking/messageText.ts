import type { Embed, Message } from 'discord.js';

/**
 * What `Ask Veil` can read of a message, as Discord resolved it in the interaction (no history is read): its
 * content; else, for a forward (which has no content of its own), the content of its first snapshot; else the title,
 * description and fields of its embeds (a forward's too). Empty when none of these holds text.
 */
export function readableText(message: Pick<Message, 'content' | 'embeds' | 'messageSnapshots'>): string {
	// discord.js types content as a string, but leaves it null when a payload has no content field at all.
	const own = (message.content as string | null) ?? '';
	if (own.trim() !== '') return own;
	const snapshots = [...(message.messageSnapshots?.values() ?? [])];
	const forwarded = (snapshots[0]?.content as string | null | undefined) ?? '';
	if (forwarded.trim() !== '') return forwarded;
	const embeds = [...message.embeds, ...snapshots.flatMap((snapshot) => snapshot.embeds)];
	return embeds
		.map(embedText)
		.filter((text) => text !== '')
		.join('\n\n');
}

function embedText(embed: Pick<Embed, 'title' | 'description' | 'fields'>): string {
	const lines = [embed.title, embed.description, ...embed.fields.map((field) => `${field.name}: ${field.value}`)];
	return lines.filter((line): line is string => typeof line === 'string' && line.trim() !== '').join('\n');
}
