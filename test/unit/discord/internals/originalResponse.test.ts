import {
	ApplicationCommandType,
	ChatInputCommandInteraction,
	Client,
	DiscordjsErrorCodes,
	InteractionType,
	MessageFlags,
	REST,
	type APIChatInputApplicationCommandInteraction,
} from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { deferOriginal, editOriginal } from '../../../../src/discord/internals/originalResponse.js';
import { NO_MENTIONS } from '../../../../src/discord/mentions.js';

interface Sent {
	readonly method: string;
	readonly path: string;
	readonly body: unknown;
	readonly authorized: boolean;
}

/** A message as Discord returns it for an edit: discord.js's editReply builds a Message of it. */
const MESSAGE = {
	id: '30',
	channel_id: '20',
	type: 0,
	content: 'answer',
	author: { id: '1', username: 'veil', discriminator: '0', avatar: null, bot: true },
	timestamp: '2026-11-26T00:00:00.000Z',
	edited_timestamp: null,
	tts: false,
	mention_everyone: false,
	mentions: [],
	mention_roles: [],
	attachments: [],
	embeds: [],
	pinned: false,
};

const clients: Client[] = [];
afterEach(async () => {
	await Promise.all(clients.splice(0).map((client) => client.destroy()));
});

/**
 * A real interaction on a real client whose REST sends nothing: `makeRequest` (@discordjs/rest's own option for
 * the function that performs a request) records each request and answers as Discord would.
 */
function interaction(): { interaction: ChatInputCommandInteraction; sent: Sent[] } {
	const sent: Sent[] = [];
	const client = new Client({ intents: [] });
	clients.push(client);
	client.rest = new REST({
		makeRequest: async (url, init) => {
			const headers = new Headers(init.headers as Record<string, string>);
			const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
			sent.push({
				method: init.method ?? 'GET',
				path: decodeURIComponent(new URL(url).pathname).replace(/^\/api\/v\d+/, ''),
				body,
				authorized: headers.has('authorization'),
			});
			const answer = init.method === 'PATCH' ? MESSAGE : undefined;
			return answer ? Response.json(answer) : new Response(null, { status: 204 });
		},
	}).setToken('bot-token');
	const raw = {
		id: '10',
		application_id: '1',
		type: InteractionType.ApplicationCommand,
		token: 'interaction-token',
		version: 1,
		channel_id: '20',
		user: { id: '2', username: 'member', discriminator: '0', avatar: null, global_name: null },
		locale: 'en-US',
		app_permissions: '0',
		entitlements: [],
		authorizing_integration_owners: {},
		attachment_size_limit: 8_388_608,
		data: { id: '40', name: 'ask', type: ApplicationCommandType.ChatInput },
	} as unknown as APIChatInputApplicationCommandInteraction;
	// discord.js builds interactions from the gateway; its constructor is not in its typings.
	const Interaction = ChatInputCommandInteraction as unknown as new (client: Client, data: unknown) => ChatInputCommandInteraction;
	return { interaction: new Interaction(client, raw), sent };
}

describe("an ask's deferral and answer by the REST routes, beside discord.js 14.28's own methods", () => {
	it('defers by the request deferReply sends', async () => {
		const ours = interaction();
		const theirs = interaction();
		await deferOriginal(ours.interaction, true);
		await theirs.interaction.deferReply({ flags: MessageFlags.Ephemeral });
		expect(ours.sent).toEqual([{ ...theirs.sent[0] }]);
		expect(ours.sent[0]).toMatchObject({ method: 'POST', path: '/interactions/10/interaction-token/callback', authorized: false });
	});

	it('leaves the interaction as deferReply leaves it, so discord.js refuses a second answer and allows the edit', async () => {
		const { interaction: ask } = interaction();
		await deferOriginal(ask, true);
		expect({ deferred: ask.deferred, ephemeral: ask.ephemeral, replied: ask.replied }).toEqual({ deferred: true, ephemeral: true, replied: false });
		await expect(ask.reply('again')).rejects.toMatchObject({ code: DiscordjsErrorCodes.InteractionAlreadyReplied });
		await expect(ask.deferReply()).rejects.toMatchObject({ code: DiscordjsErrorCodes.InteractionAlreadyReplied });
		await expect(ask.editReply('edited')).resolves.toBeDefined();
	});

	it('edits by the route editReply uses, and leaves the interaction replied, as editReply does', async () => {
		const ours = interaction();
		const theirs = interaction();
		await deferOriginal(ours.interaction, false);
		await theirs.interaction.deferReply();
		await editOriginal(ours.interaction, { content: 'answer', allowedMentions: NO_MENTIONS });
		await theirs.interaction.editReply({ content: 'answer', allowedMentions: NO_MENTIONS });
		const [ourEdit, theirEdit] = [ours.sent[1], theirs.sent[1]];
		expect(ourEdit).toMatchObject({ method: theirEdit?.method, path: theirEdit?.path, authorized: false });
		expect(ourEdit?.path).toBe('/webhooks/1/interaction-token/messages/@original');
		expect(ourEdit?.body).toMatchObject({ content: 'answer', allowed_mentions: { parse: [] } });
		expect(ours.interaction.replied).toBe(theirs.interaction.replied);
		expect(ours.interaction.replied).toBe(true);
	});
});
