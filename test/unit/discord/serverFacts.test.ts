import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { REST } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ServerFacts } from '../../../src/discord/serverFacts.js';

const BOT = '900';
const GUILD = '100';

/** A stand-in of Discord's REST for the reads ServerFacts makes, recording each; `failNext` answers one with 500. */
let server: Server;
let rest: REST;
const served: string[] = [];
let failNext = false;

beforeAll(async () => {
	server = createServer((request, response) => {
		const path = (request.url ?? '').replace('/api/v10', '');
		served.push(path);
		const send = (status: number, body: unknown) => {
			response.writeHead(status, { 'content-type': 'application/json' });
			response.end(JSON.stringify(body));
		};
		if (failNext) {
			failNext = false;
			return send(500, { message: 'boom' });
		}
		if (path === `/guilds/${GUILD}`) return send(200, { owner_id: '1', roles: [{ id: GUILD, permissions: '3072' }] });
		if (path === `/guilds/${GUILD}/channels`) return send(200, [{ id: '200', permission_overwrites: [] }]);
		if (path.startsWith('/guilds/') && path.endsWith(`/members/${BOT}`)) return send(200, { roles: [] });
		if (path.startsWith('/guilds/')) return send(200, path.endsWith('/channels') ? [] : { owner_id: '1', roles: [] });
		if (path.startsWith('/channels/')) return send(200, { id: path.split('/')[2], type: 0, name: 'general' });
		return send(404, { message: 'unknown' });
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	// No retries: a 500 is the answer, at once.
	rest = new REST({ api: `http://127.0.0.1:${port}/api`, retries: 0 }).setToken('test');
});

afterAll(async () => {
	rest.clearHashSweeper();
	rest.clearHandlerSweeper();
	await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
	served.length = 0;
	failNext = false;
});

async function readAll(facts: ServerFacts, guildId = GUILD): Promise<void> {
	const source = facts.source(guildId);
	await Promise.all([source.guild(), source.overwrites(), source.member(BOT), facts.channel(guildId, '200')]);
}

describe('ServerFacts', () => {
	it('reads each fact of a server once, and again only what a gateway event says changed', async () => {
		const facts = new ServerFacts({ rest, botId: () => BOT });
		await readAll(facts);
		await readAll(facts);
		expect(served).toHaveLength(4);
		facts.onPacket('GUILD_ROLE_UPDATE', { guild_id: GUILD, role: { id: GUILD } });
		await readAll(facts);
		expect(served.slice(4)).toEqual([`/guilds/${GUILD}`]);
		facts.onPacket('CHANNEL_UPDATE', { id: '200', guild_id: GUILD });
		await readAll(facts);
		expect(served.slice(5).sort()).toEqual([`/channels/200`, `/guilds/${GUILD}/channels`]);
		// A thread has no overwrites: its change forgets only the thread.
		facts.onPacket('THREAD_UPDATE', { id: '200', guild_id: GUILD });
		await readAll(facts);
		expect(served.slice(7)).toEqual([`/channels/200`]);
		facts.onPacket('GUILD_MEMBER_UPDATE', { guild_id: GUILD, user: { id: BOT }, roles: [] });
		await readAll(facts);
		expect(served.slice(8)).toEqual([`/guilds/${GUILD}/members/${BOT}`]);
		facts.onPacket('GUILD_UPDATE', { id: GUILD });
		await readAll(facts);
		expect(served.slice(9)).toHaveLength(4);
	});

	it('takes a thread started in a server it keeps from the event itself, and reads a deleted one again', async () => {
		const facts = new ServerFacts({ rest, botId: () => BOT });
		await readAll(facts);
		const thread = { id: '201', guild_id: GUILD, type: 11, name: 'plans', parent_id: '200', owner_id: '5', thread_metadata: { archived: false } };
		facts.onPacket('THREAD_CREATE', thread);
		await expect(facts.channel(GUILD, '201')).resolves.toMatchObject({ id: '201', type: 11, parent_id: '200', owner_id: '5' });
		expect(served).toHaveLength(4);
		facts.onPacket('THREAD_UPDATE', { ...thread, thread_metadata: { archived: true } });
		await expect(facts.channel(GUILD, '201')).resolves.toMatchObject({ thread_metadata: { archived: true } });
		facts.onPacket('THREAD_DELETE', { id: '201', guild_id: GUILD, parent_id: '200', type: 11 });
		await facts.channel(GUILD, '201');
		expect(served.slice(4)).toEqual(['/channels/201']);
	});

	it('ignores events of other servers, and packets it cannot read', async () => {
		const facts = new ServerFacts({ rest, botId: () => BOT });
		await readAll(facts);
		facts.onPacket('GUILD_ROLE_UPDATE', { guild_id: '999' });
		facts.onPacket('CHANNEL_UPDATE', { id: '200' });
		facts.onPacket('GUILD_ROLE_UPDATE', null);
		facts.onPacket('MESSAGE_CREATE', { guild_id: GUILD });
		await readAll(facts);
		expect(served).toHaveLength(4);
	});

	it('reads a member other than Veil every time: only Veil’s own roles are kept', async () => {
		const facts = new ServerFacts({ rest, botId: () => BOT });
		const source = facts.source(GUILD);
		await source.member('5').catch(() => undefined);
		await source.member('5').catch(() => undefined);
		expect(served.filter((path) => path.endsWith('/members/5'))).toHaveLength(2);
	});

	it('keeps no failed read: the next asks again', async () => {
		const facts = new ServerFacts({ rest, botId: () => BOT });
		failNext = true;
		await expect(facts.source(GUILD).guild()).rejects.toThrow();
		await expect(facts.source(GUILD).guild()).resolves.toEqual({ ownerId: '1', roles: [{ id: GUILD, permissions: '3072' }] });
		expect(served).toEqual([`/guilds/${GUILD}`, `/guilds/${GUILD}`]);
	});

	it('reads a server again once its facts are older than maxAgeMs', async () => {
		let now = 0;
		const facts = new ServerFacts({ rest, botId: () => BOT, maxAgeMs: 60_000, now: () => now });
		await readAll(facts);
		now = 59_000;
		await readAll(facts);
		expect(served).toHaveLength(4);
		now = 121_000;
		await readAll(facts);
		expect(served).toHaveLength(8);
	});

	it('keeps at most maxServers, forgetting the one least recently read', async () => {
		const facts = new ServerFacts({ rest, botId: () => BOT, maxServers: 2 });
		await facts.source('1').guild();
		await facts.source('2').guild();
		await facts.source('1').guild();
		await facts.source('3').guild();
		expect(served).toEqual(['/guilds/1', '/guilds/2', '/guilds/3']);
		await facts.source('1').guild();
		await facts.source('2').guild();
		expect(served.slice(3)).toEqual(['/guilds/2']);
	});

	it('reads a channel named from a DM each time: it belongs to no server kept', async () => {
		const facts = new ServerFacts({ rest, botId: () => BOT });
		await facts.channel(null, '300');
		await facts.channel(null, '300');
		expect(served).toEqual(['/channels/300', '/channels/300']);
	});
});
