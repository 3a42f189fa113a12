import { once } from 'node:events';
import { Client, Events, GatewayIntentBits, type APIMessage } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiscordEmulator, makeUser } from '../../sandbox/discord/emulator.js';

// What the local Discord delivers of members' messages, by Discord's rules (docs/discord.md): the Guild Messages and
// Direct Messages intents gate the events; without Message Content the content is there only where it is for Veil.
let emulator: DiscordEmulator;
let client: Client | undefined;

beforeEach(async () => {
	emulator = await DiscordEmulator.start();
});

afterEach(async () => {
	await client?.destroy();
	client = undefined;
	await emulator.stop();
});

/** A real discord.js client with these intents, collecting the messages it receives as they came (Veil reads them raw). */
async function connect(intents: GatewayIntentBits[]): Promise<APIMessage[]> {
	const received: APIMessage[] = [];
	client = new Client({ intents: [GatewayIntentBits.Guilds, ...intents], rest: { api: emulator.apiUrl } });
	client.on(Events.Raw, (packet: { t?: string; d?: APIMessage }) => {
		if (packet.t === 'MESSAGE_CREATE' && packet.d) received.push(packet.d);
	});
	const ready = once(client, Events.ClientReady);
	await client.login(emulator.token);
	await ready;
	return received;
}

/** Posts, then a marker mentioning the bot, and waits for the marker: the gateway keeps order. */
async function postThenMark(received: APIMessage[], post: () => void, channelId?: string): Promise<APIMessage[]> {
	post();
	const marker = emulator.postAsMember({ content: `<@${emulator.bot.id}> marker`, channelId });
	await emulator.waitUntil(() => received.some((message) => message.id === marker.id), 'the marker message');
	return received.filter((message) => message.id !== marker.id);
}

describe('members’ messages through the local Discord', () => {
	it('sends a server’s messages only with Guild Messages, and a DM’s only with Direct Messages', async () => {
		const received = await connect([GatewayIntentBits.DirectMessages]);
		const member = makeUser('ada');
		const dm = emulator.dmChannelId(member);
		emulator.postAsMember({ content: `<@${emulator.bot.id}> in a server`, user: member });
		const inDm = emulator.postAsMember({ content: 'in a DM', user: member, channelId: dm });
		await emulator.waitUntil(() => received.some((message) => message.id === inDm.id), 'the DM');
		expect(received.map((message) => message.content)).toEqual(['in a DM']);
	});

	it('without Message Content, empties chatter and replies to an answer of a command, not mentions or replies to Veil', async () => {
		const received = await connect([GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages]);
		const file = emulator.attach({ filename: 'notes.txt', contentType: 'text/plain', bytes: 'x' });
		const veilSaid = emulator.postAsMember({ content: 'an ordinary message of Veil', user: emulator.bot });
		const others = await postThenMark(received, () => {
			emulator.postAsMember({ content: 'chatter', attachments: [file] });
			emulator.postAsMember({ content: 'a reply without ping', replyTo: veilSaid, pingOnReply: false });
			emulator.postAsMember({ content: 'a reply with ping', replyTo: veilSaid });
			emulator.postAsMember({ content: `hello <@${emulator.bot.id}>`, attachments: [file] });
		});
		const [chatter, unpinged, pinged, mention] = others.filter((message) => message.author.id !== emulator.bot.id);
		expect(chatter?.content).toBe('');
		expect(chatter?.attachments).toEqual([]);
		expect(unpinged?.content).toBe('');
		expect(pinged?.content).toBe('a reply with ping');
		expect(mention?.content).toBe(`hello <@${emulator.bot.id}>`);
		expect(mention?.attachments).toHaveLength(1);
	});

	it('with Message Content, sends every message whole', async () => {
		const received = await connect([GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent]);
		const others = await postThenMark(received, () => emulator.postAsMember({ content: 'chatter' }));
		expect(others.map((message) => message.content)).toEqual(['chatter']);
	});
});
