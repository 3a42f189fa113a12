import { EventEmitter } from 'node:events';
import { Client, GatewayDispatchEvents, GatewayOpcodes, WebSocketShard, type WebSocketManager } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { dropGuildStubs } from '../../../../src/discord/internals/readyGuilds.js';

// The private side of discord.js's WebSocketManager that a gateway connection wires up: @discordjs/ws's manager
// (its dispatches), and the shards discord.js keeps beside it.
interface ManagerInternals {
	_ws: (EventEmitter & { destroy(): Promise<void> }) | null;
	attachEvents(): void;
	shards: Map<number, WebSocketShard>;
}

const clients: Client[] = [];
afterEach(async () => {
	await Promise.all(clients.splice(0).map((client) => client.destroy()));
});

/** A client that has received READY listing `guildCount` servers, down the path a gateway dispatch takes. */
function readyClient(guildCount: number, prepare: (client: Client) => void = () => undefined): Client {
	const client = new Client({ intents: [] });
	clients.push(client);
	prepare(client);
	const manager = client.ws as WebSocketManager & ManagerInternals;
	// Destroyed with the client, as @discordjs/ws's manager is.
	const dispatches = Object.assign(new EventEmitter(), { destroy: async () => undefined });
	manager._ws = dispatches;
	manager.attachEvents();
	// discord.js makes its shards as it connects; the constructor is not in its typings.
	const Shard = WebSocketShard as unknown as new (manager: WebSocketManager, id: number) => WebSocketShard;
	manager.shards.set(0, new Shard(manager, 0));
	const guilds = Array.from({ length: guildCount }, (_, n) => ({ id: `${100 + n}`, unavailable: true }));
	const data = {
		op: GatewayOpcodes.Dispatch,
		t: GatewayDispatchEvents.Ready,
		s: 1,
		d: {
			v: 10,
			user: { id: '1', username: 'veil', discriminator: '0', avatar: null, bot: true },
			guilds,
			session_id: 's',
			resume_gateway_url: 'wss://x',
			application: { id: '1', flags: 0 },
		},
	};
	// As @discordjs/ws's shard emits them (WebSocketShardEvents.Ready, then .Dispatch): the shard's own bookkeeping
	// reads READY first, then discord.js handles the dispatch.
	dispatches.emit('ready', { data: data.d, shardId: 0 });
	dispatches.emit('dispatch', { data, shardId: 0 });
	return client;
}

describe('READY, as discord.js 14.28 handles it', () => {
	it('makes a Guild of every server it lists, unless the list is emptied first', () => {
		expect(readyClient(3).guilds.cache.size).toBe(3);
	});

	it('is emitted raw, the packet itself, before discord.js reads it: dropGuildStubs empties and counts the list', () => {
		let count: () => number = () => -1;
		const client = readyClient(3, (fresh) => {
			count = dropGuildStubs(fresh);
		});
		expect(client.guilds.cache.size).toBe(0);
		expect(client.user?.id).toBe('1');
		expect(count()).toBe(3);
	});
});
