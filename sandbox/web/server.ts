import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ZodError } from 'zod';
import { HARM_CATEGORIES } from '../../src/generation/generationResponse.js';
import type { DiscordEmulator } from '../discord/emulator.js';
import { requestTarget, type RequestTarget } from '../discord/requestTarget.js';
import { VEIL_TIMEOUT_MS, type LocalModel } from '../model/localModel.js';
import type { Person, SandboxWorld } from '../world.js';
import { SUPPORTED_LOCALES } from '../../src/i18n/locales.js';
import { languageName } from '../../src/i18n/languageNames.js';
import { ReadState } from './readState.js';
import { PageActions, PageRequestError } from './actions.js';
import { channelsFor, messagesFor } from './view.js';

const PUBLIC = join(import.meta.dirname, 'public');
const FILES: Record<string, string> = {
	'/': 'index.html',
	'/index.html': 'index.html',
	'/app.js': 'app.js',
	'/render.js': 'render.js',
	'/api.js': 'api.js',
	'/model.js': 'model.js',
	'/style.css': 'style.css',
	'/commandBox.js': 'commandBox.js',
	'/commandForm.js': 'commandForm.js',
	'/stopped.js': 'stopped.js',
	'/layout.js': 'layout.js',
	'/favicon.svg': 'favicon.svg',
};
const TYPES: Record<string, string> = {
	html: 'text/html; charset=utf-8',
	js: 'text/javascript; charset=utf-8',
	css: 'text/css; charset=utf-8',
	svg: 'image/svg+xml',
};
/** Room for a file picked for /ask (Discord allows 10 MB), in base64. */
const MAX_BODY_BYTES = 14 * 1024 * 1024;

export interface PageServerOptions {
	discord: DiscordEmulator;
	world: SandboxWorld;
	/** The local model, or undefined when the real service answers (the model panel then says so). */
	model: LocalModel | undefined;
	port: number;
}

export interface PageServer {
	readonly url: string;
	stop(): Promise<void>;
}

/**
 * The page and its small JSON API on 127.0.0.1: what each person sees, the actions they take (carried out on the
 * local Discord), the model panel, and a Server-Sent Events stream that says when something changed.
 */
export async function startPageServer(options: PageServerOptions): Promise<PageServer> {
	const { discord, world, model } = options;
	const actions = new PageActions(discord, world);
	const read = new ReadState();
	// A page that sees another instance knows the sandbox restarted under it.
	const instance = randomUUID();
	const streams = new Set<ServerResponse>();
	const messages = (person: Person, channelId: string) => messagesFor(discord, person, channelId, actions.labels);
	// What everyone has seen at start is read: only what happens in the page is news.
	for (const person of world.people) for (const c of channelsFor(discord, world, person)) read.markRead(person.key, c.id, messages(person, c.id));
	let pending: NodeJS.Timeout | undefined;
	// Coalesced: one Veil answer makes several requests (callback, edit), the page refetches once.
	const changed = () => {
		pending ??= setTimeout(() => {
			pending = undefined;
			for (const stream of streams) stream.write('event: changed\ndata: {}\n\n');
		}, 25);
	};
	discord.events.on('request', changed);
	discord.events.on('dispatch', changed);
	model?.events.on('changed', changed);
	// Every tab shows the one panel the server holds.
	const choices = (next: unknown) => {
		for (const stream of streams) stream.write(`event: model\ndata: ${JSON.stringify(next)}\n\n`);
	};
	model?.events.on('choices', choices);
	const heartbeat = setInterval(() => {
		for (const stream of streams) stream.write(': keep-alive\n\n');
	}, 15_000);

	const api = async (request: IncomingMessage, url: RequestTarget): Promise<unknown> => {
		const person = world.person(url.searchParams.get('person') ?? 'member');
		const route = `${request.method} ${url.pathname}`;
		switch (route) {
			case 'GET /api/state':
				if (!person) throw new PageRequestError('Unknown person.');
				return {
					instance,
					server: world.guild.name,
					veil: { id: discord.bot.id, name: discord.bot.username },
					people: world.people.map((p) => ({
						key: p.key,
						label: p.label,
						role: p.role,
						id: p.user.id,
						name: p.user.global_name ?? p.user.username,
						permissions: p.permissions.toString(),
						locale: p.locale,
					})),
					locales: SUPPORTED_LOCALES.map((code) => ({ code, name: languageName(code, code) })),
					channels: channelsFor(discord, world, person),
					allChannels: world.channels.map((c) => ({ id: c.id, name: c.name })),
					commands: [...discord.registeredCommands({ guildId: world.guild.id }), ...discord.registeredCommands()],
					model: model ? { local: true, choices: model.choices, categories: HARM_CATEGORIES, timeoutMs: VEIL_TIMEOUT_MS } : { local: false },
				};
			case 'GET /api/messages': {
				if (!person) throw new PageRequestError('Unknown person.');
				const channelId = url.searchParams.get('channel') ?? '';
				const channels = channelsFor(discord, world, person);
				if (!channels.some((c) => c.id === channelId)) throw new PageRequestError('That channel is not visible to this person.', 403);
				const shown = messages(person, channelId);
				read.markRead(person.key, channelId, shown);
				// The channels with news for this person: the page marks them.
				const news = channels.filter((c) => read.hasNews(person.key, person.user.id, c.id, messages(person, c.id))).map((c) => c.id);
				return { messages: shown, news };
			}
			case 'GET /api/model':
				return model ? { choices: model.choices, exchanges: model.exchanges } : { local: false };
			case 'POST /api/model':
				if (!model) throw new PageRequestError('The real model service answers: the model panel is off.', 409);
				return { choices: model.update(await readJson(request)) };
			case 'POST /api/person':
				return actions.language(await readJson(request));
			case 'POST /api/command':
				return actions.command(await readJson(request));
			case 'POST /api/button':
				return actions.button(await readJson(request));
			case 'POST /api/modal':
				return actions.modal(await readJson(request));
			case 'POST /api/apps':
				return actions.apps(await readJson(request));
			case 'POST /api/post': {
				const posted = actions.post(await readJson(request));
				// A member's own message is news to the other tabs at once: no bot sees it, nothing else says so.
				changed();
				return posted;
			}
			default:
				throw new PageRequestError('No such page request.', 404);
		}
	};

	const server: Server = createServer((request, response) => {
		try {
			serve(request, response);
		} catch (error) {
			// Whatever a request holds, it is answered and never ends the sandbox: any web page can send one here.
			sendError(response, error);
		}
	});
	const serve = (request: IncomingMessage, response: ServerResponse): void => {
		// Only pages of this address: another site (or a DNS name rebound to 127.0.0.1) cannot drive the people.
		if (!isOwnHost(request.headers.host, server)) return sendJson(response, 421, { error: 'Open the sandbox at its own address.' });
		const url = requestTarget(request.url);
		if (request.method === 'POST' && !request.headers['content-type']?.startsWith('application/json')) {
			return sendJson(response, 415, { error: 'The page sends JSON.' });
		}
		if (url.pathname === '/api/events') return openStream(response, streams, instance);
		if (url.pathname.startsWith('/api/')) {
			api(request, url).then(
				(result) => sendJson(response, 200, result ?? {}),
				(error: unknown) => sendError(response, error),
			);
			return;
		}
		const file = FILES[url.pathname];
		if (!file || request.method !== 'GET') return sendJson(response, 404, { error: 'Not found' });
		readFile(join(PUBLIC, file)).then(
			(content) => {
				response.writeHead(200, { 'content-type': TYPES[file.split('.').pop() ?? ''] ?? 'text/plain', 'cache-control': 'no-store' });
				response.end(content);
			},
			(error: unknown) => sendError(response, error),
		);
	};
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port, '127.0.0.1', resolve);
	});
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
		async stop() {
			clearInterval(heartbeat);
			clearTimeout(pending);
			discord.events.off('request', changed);
			discord.events.off('dispatch', changed);
			model?.events.off('changed', changed);
			model?.events.off('choices', choices);
			for (const stream of streams) stream.end();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

function isOwnHost(host: string | undefined, server: Server): boolean {
	const { port } = server.address() as AddressInfo;
	return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

function openStream(response: ServerResponse, streams: Set<ServerResponse>, instance: string): void {
	response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
	response.write(`event: hello\ndata: ${JSON.stringify({ instance })}\n\n`);
	response.write('event: changed\ndata: {}\n\n');
	streams.add(response);
	response.on('close', () => streams.delete(response));
}

async function readJson(request: IncomingMessage): Promise<unknown> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of request as AsyncIterable<Buffer>) {
		size += chunk.length;
		if (size > MAX_BODY_BYTES) throw new PageRequestError('That request is too large.', 413);
		chunks.push(chunk);
	}
	try {
		return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
	} catch {
		throw new PageRequestError('The page sent something that is not JSON.');
	}
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
	if (response.headersSent) return void response.end();
	response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
	response.end(JSON.stringify(body));
}

function sendError(response: ServerResponse, error: unknown): void {
	if (error instanceof PageRequestError) return sendJson(response, error.status, { error: error.message });
	if (error instanceof ZodError) return sendJson(response, 400, { error: `Not a valid choice: ${error.issues.map((i) => i.message).join('; ')}` });
	// The emulator's own refusals (an unknown channel, a modal field Veil did not ask for) say what went wrong.
	sendJson(response, 400, { error: error instanceof Error ? error.message.split('\n')[0] : String(error) });
}
