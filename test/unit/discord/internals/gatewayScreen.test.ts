import { EventEmitter } from 'node:events';
import { Client, Events, GatewayDispatchEvents, GatewayIntentBits, GatewayOpcodes, Status, WebSocketShard, type WebSocketManager } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { screenGatewayPackets } from '../../../../src/discord/internals/gatewayScreen.js';

// The private side of discord.js's WebSocketManager a gateway connection wires up (see readyGuilds.test.ts).
interface ManagerInternals {
	_ws: (EventEmitter & { destroy(): Promise<void> }) | null;
	status: Status;
	attachEvents(): void;
	shards: Map<number, WebSocketShard>;
}

const clients: Client[] = [];
afterEach(async () => {
	await Promise.all(clients.splice(0).map((client) => client.destroy()));
});

const BOT = { id: '1', username: 'veil', discriminator: '0', avatar: null, bot: true };
const MEMBER = { id: '7', username: 'ada', discriminator: '0', avatar: null, global_name: null };

/** A ready client with the message intents, and a way to send it a dispatch down the path discord.js takes. */
async function readyClient(prepare: (client: Client) => void = () => undefined) {
	const client = new Client({
		intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages],
		waitGuildTimeout: 0,
	});
	clients.push(client);
	prepare(client);
	const manager = client.ws as WebSocketManager & ManagerInternals;
	const dispatches = Object.assign(new EventEmitter(), { destroy: async () => undefined });
	manager._ws = dispatches;
	manager.attachEvents();
	const Shard = WebSocketShard as unknown as new (manager: WebSocketManager, id: number) => WebSocketShard;
	manager.shards.set(0, new Shard(manager, 0));
	let s = 0;
	const dispatch = (t: string, d: unknown) => {
		s += 1;
		const data = { op: GatewayOpcodes.Dispatch, t, s, d };
		if (t === GatewayDispatchEvents.Ready) dispatches.emit('ready', { data: d, shardId: 0 });
		dispatches.emit('dispatch', { data, shardId: 0 });
	};
	dispatch(GatewayDispatchEvents.Ready, {
		v: 10,
		user: BOT,
		guilds: [],
		session_id: 's',
		resume_gateway_url: 'wss://x',
		application: { id: '1', flags: 0 },
	});
	// As the manager marks itself once its shards are (with waitGuildTimeout 0, right after READY): packets are then
	// handled as they come rather than queued.
	manager.status = Status.Ready;
	return { client, dispatch };
}

const guild = {
	id: '100',
	name: 'server',
	unavailable: false,
	channels: [{ id: '200', type: 0, name: 'general', guild_id: '100', position: 0, permission_overwrites: [] }],
	threads: [],
	roles: [{ id: '100', name: '@everyone', permissions: '0', position: 0, color: 0, hoist: false, managed: false, mentionable: false }],
	members: [],
	emojis: [],
	stickers: [],
	features: [],
};
const message = {
	id: '300',
	channel_id: '200',
	guild_id: '100',
	author: MEMBER,
	content: '',
	timestamp: new Date(0).toISOString(),
	edited_timestamp: null,
	tts: false,
	mention_everyone: false,
	mentions: [],
	mention_roles: [],
	attachments: [],
	embeds: [],
	components: [],
	pinned: false,
	type: 0,
	flags: 0,
};

describe('the server and message events, as discord.js 14.28 handles them', () => {
	it('builds a Guild, its channels and a Message when nothing screens them', async () => {
		const { client, dispatch } = await readyClient();
		const created: unknown[] = [];
		client.on(Events.MessageCreate, (made) => created.push(made));
		dispatch(GatewayDispatchEvents.GuildCreate, guild);
		dispatch(GatewayDispatchEvents.MessageCreate, message);
		expect(client.guilds.cache.size).toBe(1);
		expect(client.channels.cache.size).toBe(1);
		expect(created).toHaveLength(1);
	});

	it('are read raw by screenGatewayPackets, each once with its own data, and discord.js builds nothing of them', async () => {
		const read: Array<[string, unknown]> = [];
		const created: unknown[] = [];
		const { client, dispatch } = await readyClient((fresh) => {
			screenGatewayPackets(fresh, (t, d) => read.push([t, d]));
			fresh.on(Events.MessageCreate, (made) => created.push(made));
		});
		dispatch(GatewayDispatchEvents.GuildCreate, guild);
		dispatch(GatewayDispatchEvents.MessageCreate, message);
		dispatch(GatewayDispatchEvents.MessageDelete, { id: '300', channel_id: '200', guild_id: '100' });
		expect(read.map(([t]) => t)).toEqual(['GUILD_CREATE', 'MESSAGE_CREATE', 'MESSAGE_DELETE']);
		expect(read[1]?.[1]).toBe(message);
		expect(client.guilds.cache.size).toBe(0);
		expect(client.channels.cache.size).toBe(0);
		expect(created).toHaveLength(0);
		// The bot's own user, from READY, is all discord.js kept.
		expect(client.user?.id).toBe('1');
	});

	it('leaves interactions and READY to discord.js', async () => {
		const read: string[] = [];
		const { client } = await readyClient((fresh) => screenGatewayPackets(fresh, (t) => read.push(t)));
		expect(read).toEqual([]);
		expect(client.user?.id).toBe('1');
	});
});
