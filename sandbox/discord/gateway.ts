import { AUTOMOD_CONFIGURATION_INTENT, AUTOMOD_RULE_EVENTS } from './automod.js';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { DiscordState } from './model.js';
import { guildCreatePayload } from './wire.js';
import { checkDispatch } from './apiSpec.js';
import { shardOf } from './shards.js';
import { requestTarget } from './requestTarget.js';
import { asSeenWithoutContent, MESSAGE_CONTENT_INTENT, MESSAGE_EVENTS, messageIntentOf } from './messageContent.js';

/** What an IDENTIFY carried. */
export interface IdentifyRecord {
	sessionId: string;
	intents: number;
	shard: [number, number] | undefined;
	properties: unknown;
	at: number;
}

interface Session {
	id: string;
	seq: number;
	/** Serialized dispatches still unconfirmed by a heartbeat, for RESUME replays. */
	buffer: Array<{ s: number; raw: string }>;
	socket: WebSocket | undefined;
	intents: number;
	ready: boolean;
	/** IDENTIFY's `[shard_id, num_shards]`; `[0, 1]` when it sent none. */
	shard: [number, number];
}

interface Connection {
	session: Session | undefined;
}

// Past this many unconfirmed dispatches the oldest are dropped; a RESUME that needs them is refused (op 9).
const MAX_BUFFER = 20_000;

/** Events Discord sends only to sessions that identified with the Guilds intent (1 << 0). */
const GUILDS_INTENT = 1;
const GUILDS_EVENTS = new Set([
	'GUILD_CREATE',
	'GUILD_UPDATE',
	'GUILD_DELETE',
	'GUILD_ROLE_CREATE',
	'GUILD_ROLE_UPDATE',
	'GUILD_ROLE_DELETE',
	'CHANNEL_CREATE',
	'CHANNEL_UPDATE',
	'CHANNEL_DELETE',
	'THREAD_CREATE',
	'THREAD_UPDATE',
	'THREAD_DELETE',
	'THREAD_LIST_SYNC',
]);

/**
 * Discord's gateway for one shard: HELLO, IDENTIFY → READY + GUILD_CREATE, heartbeats, RESUME with replay, and
 * controls to make the client reconnect. Dispatches for a session whose socket is down are kept and replayed.
 */
export class Gateway {
	readonly wss = new WebSocketServer({ noServer: true });
	readonly identifies: IdentifyRecord[] = [];
	/** Close codes the client sent, in order. */
	readonly clientCloses: number[] = [];
	/** Every URL a client connected with, e.g. `/?v=10&encoding=json`. */
	readonly connections: string[] = [];
	identifyCount = 0;
	resumeCount = 0;
	readyCount = 0;
	readonly #sessions = new Map<string, Session>();
	/** The session that last identified or resumed. */
	#current: Session | undefined;
	/** Per shard id, the session that last identified or resumed for it: its guilds' events go there. */
	readonly #byShard = new Map<number, Session>();
	/** Shards whose IDENTIFY and RESUME are left unanswered until released; see holdShard. */
	readonly #held = new Map<number, Array<() => void>>();

	constructor(
		private readonly state: DiscordState,
		private readonly heartbeatIntervalMs: number,
	) {}

	handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
		this.wss.handleUpgrade(req, socket, head, (ws) => this.#accept(ws, req.url ?? '/'));
	}

	/** True while some session has received READY (or RESUMED) and has an open socket. */
	get connected(): boolean {
		return this.#current?.socket?.readyState === WebSocket.OPEN && this.#current.ready;
	}

	get hasSession(): boolean {
		return this.#current !== undefined;
	}

	/**
	 * Sends a dispatch to every live session, buffering it for those whose socket is down; an event of one guild goes
	 * only to the sessions of that guild's shard.
	 */
	dispatchAll(t: string, d: unknown): void {
		const body = d as { id?: unknown; guild_id?: unknown } | null;
		const guildId = t === 'GUILD_CREATE' ? body?.id : body?.guild_id;
		// A DM's messages go to shard 0 alone, as Discord sends them.
		const dmMessage = typeof guildId !== 'string' && MESSAGE_EVENTS.has(t);
		for (const session of this.#sessions.values()) {
			if (dmMessage && session.shard[0] !== 0) continue;
			if (typeof guildId !== 'string' || covers(session, guildId)) this.#dispatch(session, t, d);
		}
	}

	/**
	 * Sends a dispatch where Discord would: to the session of the guild's shard (a DM's to shard 0's). Throws when no
	 * session runs that shard.
	 */
	dispatchToGuild(guildId: string | null, t: string, d: unknown): void {
		const live = [...this.#sessions.values()];
		if (live.length === 0) return this.dispatchCurrent(t, d);
		const count = live[0]?.shard[1] ?? 1;
		const shard = guildId === null ? 0 : shardOf(guildId, count);
		const session = this.#byShard.get(shard);
		if (!session || !this.#sessions.has(session.id)) throw new Error(`No gateway session runs shard ${shard} of ${count} to dispatch ${t} to.`);
		this.#dispatch(session, t, d);
	}

	/** Shard ids with a session that is READY (or RESUMED) on an open socket. */
	readyShards(): number[] {
		return [...this.#byShard.entries()]
			.filter(([, session]) => this.#sessions.has(session.id) && session.ready && session.socket?.readyState === WebSocket.OPEN)
			.map(([shard]) => shard)
			.sort((a, b) => a - b);
	}

	/** Closes the socket of one shard's session with `code` (the session survives, so the client may resume). */
	closeShardSocket(shard: number, code = 4000): void {
		const session = this.#byShard.get(shard);
		if (session) session.ready = false;
		session?.socket?.close(code, 'emulator closed the shard');
	}

	/** Leaves IDENTIFY and RESUME for this shard unanswered until releaseShard: the shard stays down. */
	holdShard(shard: number): void {
		if (!this.#held.has(shard)) this.#held.set(shard, []);
	}

	/** Answers the held IDENTIFY and RESUME of this shard, and later ones at once. */
	releaseShard(shard: number): void {
		const parked = this.#held.get(shard) ?? [];
		this.#held.delete(shard);
		for (const answer of parked) answer();
	}

	/** Sends a dispatch to the current session (the bot); throws if no client ever identified. */
	dispatchCurrent(t: string, d: unknown): void {
		if (!this.#current) {
			throw new Error(`No gateway session to dispatch ${t} to: log a client in first (await emulator.waitForReady()).`);
		}
		this.#dispatch(this.#current, t, d);
	}

	/** op 7: every connected client should close and RESUME. */
	sendReconnect(): void {
		for (const session of this.#sessions.values()) this.#send(session.socket, { op: 7, d: null });
	}

	/** op 9: resumable sessions stay; otherwise they are forgotten, so the client must IDENTIFY again. */
	sendInvalidSession(resumable: boolean): void {
		for (const session of [...this.#sessions.values()]) {
			this.#send(session.socket, { op: 9, d: resumable });
			if (!resumable) this.#forget(session);
		}
	}

	/** Closes every socket with `code` (sessions survive, so clients may resume); no code → drop without a close frame. */
	closeAllSockets(code?: number, reason = 'emulator closed the socket'): void {
		for (const ws of this.wss.clients) {
			if (code === undefined) ws.terminate();
			else ws.close(code, reason);
		}
	}

	close(): void {
		for (const ws of this.wss.clients) ws.terminate();
		this.wss.close();
		this.#sessions.clear();
		this.#current = undefined;
	}

	#accept(ws: WebSocket, url: string): void {
		this.connections.push(url);
		const conn: Connection = { session: undefined };
		const params = requestTarget(url).searchParams;
		if (params.get('v') !== '10') {
			ws.close(4012, 'Invalid API version');
			return;
		}
		if (params.get('encoding') !== 'json') {
			ws.close(4002, 'Error while decoding payload');
			return;
		}
		ws.on('message', (data, isBinary) => this.#onMessage(ws, conn, data as Buffer, isBinary));
		ws.on('close', (code) => {
			this.clientCloses.push(code);
			const session = conn.session;
			if (session && session.socket === ws) {
				session.socket = undefined;
				// 1000/1001 from the client ends the session on Discord too; other codes keep it resumable.
				if (code === 1000 || code === 1001) this.#forget(session);
			}
			this.state.changed.notify();
		});
		ws.on('error', () => undefined);
		this.#send(ws, { op: 10, d: { heartbeat_interval: this.heartbeatIntervalMs } });
	}

	#onMessage(ws: WebSocket, conn: Connection, data: Buffer, isBinary: boolean): void {
		let payload: { op?: number; d?: unknown };
		try {
			if (isBinary) throw new Error('binary');
			payload = JSON.parse(data.toString('utf8')) as { op?: number; d?: unknown };
		} catch {
			ws.close(4002, 'Error while decoding payload');
			return;
		}
		switch (payload.op) {
			case 1: {
				this.#send(ws, { op: 11 });
				const seq = payload.d;
				if (typeof seq === 'number' && conn.session) trim(conn.session, seq);
				return;
			}
			case 2:
				this.#unlessHeld(identifyShard(payload.d)[0], () => this.#identify(ws, conn, payload.d as Record<string, unknown>));
				return;
			case 6:
				this.#unlessHeld(this.#sessions.get(String((payload.d as { session_id?: unknown } | null)?.session_id))?.shard[0], () =>
					this.#resume(ws, conn, payload.d as Record<string, unknown>),
				);
				return;
			case 3:
			case 4:
			case 8:
			case 31:
				if (!conn.session) ws.close(4003, 'Not authenticated');
				return;
			default:
				ws.close(4001, 'Unknown opcode');
		}
	}

	#identify(ws: WebSocket, conn: Connection, d: Record<string, unknown> | undefined): void {
		if (conn.session) {
			ws.close(4005, 'Already authenticated');
			return;
		}
		if (!d || d.token !== this.state.token) {
			ws.close(4004, 'Authentication failed');
			return;
		}
		const session: Session = {
			id: randomBytes(16).toString('hex'),
			seq: 0,
			buffer: [],
			socket: ws,
			intents: Number(d.intents ?? 0),
			ready: false,
			shard: identifyShard(d),
		};
		conn.session = session;
		this.#sessions.set(session.id, session);
		this.identifyCount += 1;
		this.identifies.push({
			sessionId: session.id,
			intents: session.intents,
			shard: Array.isArray(d.shard) ? (d.shard as [number, number]) : undefined,
			properties: d.properties,
			at: Date.now(),
		});
		const guilds = [...this.state.guilds.values()].filter((guild) => !guild.withoutBot && covers(session, guild.id));
		const resumeUrl = this.state.baseUrl.replace(/^http/, 'ws');
		this.#dispatch(session, 'READY', {
			v: 10,
			user: { ...this.state.bot, bot: true, verified: true, mfa_enabled: false, flags: 0, locale: 'en-US' },
			guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
			session_id: session.id,
			session_type: 'normal',
			resume_gateway_url: resumeUrl,
			shard: session.shard,
			application: { id: this.state.applicationId, flags: 0 },
			private_channels: [],
			presences: [],
			relationships: [],
			guild_join_requests: [],
			user_settings: {},
			geo_ordered_rtc_regions: [],
			_trace: ['["veil-emulator",{}]'],
		});
		for (const guild of guilds) this.#dispatch(session, 'GUILD_CREATE', guildCreatePayload(guild));
		session.ready = true;
		this.readyCount += 1;
		this.#current = session;
		this.#byShard.set(session.shard[0], session);
		this.state.changed.notify();
	}

	#resume(ws: WebSocket, conn: Connection, d: Record<string, unknown> | undefined): void {
		if (!d || d.token !== this.state.token) {
			ws.close(4004, 'Authentication failed');
			return;
		}
		const session = this.#sessions.get(String(d.session_id));
		const seq = Number(d.seq ?? 0);
		const oldest = session?.buffer[0]?.s;
		if (!session || (oldest !== undefined && seq < oldest - 1)) {
			this.#send(ws, { op: 9, d: false });
			return;
		}
		if (session.socket && session.socket !== ws) session.socket.terminate();
		session.socket = ws;
		conn.session = session;
		this.resumeCount += 1;
		for (const entry of session.buffer) if (entry.s > seq) ws.send(entry.raw);
		this.#dispatch(session, 'RESUMED', { _trace: ['["veil-emulator",{}]'] });
		session.ready = true;
		this.#current = session;
		this.#byShard.set(session.shard[0], session);
		this.state.changed.notify();
	}

	#unlessHeld(shard: number | undefined, answer: () => void): void {
		const parked = shard === undefined ? undefined : this.#held.get(shard);
		if (parked) parked.push(answer);
		else answer();
	}

	#dispatch(session: Session, t: string, given: unknown): void {
		if (GUILDS_EVENTS.has(t) && (session.intents & GUILDS_INTENT) === 0) return;
		if (AUTOMOD_RULE_EVENTS.has(t) && (session.intents & AUTOMOD_CONFIGURATION_INTENT) === 0) return;
		if (MESSAGE_EVENTS.has(t) && (session.intents & messageIntentOf(given)) === 0) return;
		const withoutContent = (t === 'MESSAGE_CREATE' || t === 'MESSAGE_UPDATE') && (session.intents & MESSAGE_CONTENT_INTENT) === 0;
		const d = withoutContent ? asSeenWithoutContent(this.state.bot.id, given) : given;
		this.#holdToPublishedApi(t, d);
		session.seq += 1;
		const raw = JSON.stringify({ op: 0, t, s: session.seq, d });
		session.buffer.push({ s: session.seq, raw });
		if (session.buffer.length > MAX_BUFFER) session.buffer.splice(0, MAX_BUFFER / 4);
		if (session.socket?.readyState === WebSocket.OPEN) session.socket.send(raw);
	}

	/** A payload Discord's published API refuses is recorded for the test to fail on (see apiSpec.ts). */
	#holdToPublishedApi(t: string, d: unknown): void {
		const verdict = checkDispatch(t, d);
		for (const field of verdict.undefinedFields) this.state.undefinedApiFields.add(`dispatch ${t} ${field}`);
		if (verdict.problems.length > 0) this.state.apiViolations.push({ where: `dispatch ${t}`, problems: verdict.problems });
	}

	#send(ws: WebSocket | undefined, payload: unknown): void {
		if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(payload));
	}

	#forget(session: Session): void {
		this.#sessions.delete(session.id);
		session.ready = false;
		if (this.#current === session) this.#current = undefined;
	}
}

/** IDENTIFY's shard array, or `[0, 1]` without one. */
function identifyShard(d: unknown): [number, number] {
	const shard = (d as { shard?: unknown } | null)?.shard;
	return Array.isArray(shard) && shard.length === 2 && shard.every(Number.isInteger) ? (shard as [number, number]) : [0, 1];
}

/** Whether a guild's events belong to this session's shard. */
function covers(session: Session, guildId: string): boolean {
	return shardOf(guildId, session.shard[1]) === session.shard[0];
}

/** Drops replay entries the client confirmed with a heartbeat: it never resumes from before them. */
function trim(session: Session, seq: number): void {
	let count = 0;
	while (count < session.buffer.length && (session.buffer[count]?.s ?? Infinity) <= seq) count += 1;
	if (count) session.buffer.splice(0, count);
}
