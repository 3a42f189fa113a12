import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { LinkedCredentials } from '../../src/accounts/credentials.js';
import { loginResponse, REAL_SERVICE_EXTRAS, safeResponse, type LoginShape, type ScriptedAnswer } from './upstreamBodies.js';

export * from './upstreamBodies.js';

/** One request the stand-in received, as the tests inspect it. */
export interface UpstreamRequest {
	endpoint: 'generate' | 'login' | 'unknown';
	method: string;
	/** The path without the query, as sent (not decoded). */
	path: string;
	query: Record<string, string>;
	/** Header names lowercased, as node:http gives them. */
	headers: Record<string, string | string[] | undefined>;
	rawBody: string;
	/** The body parsed as JSON, when it is JSON. */
	json?: unknown;
	/** The body decoded as a form, when sent as `application/x-www-form-urlencoded`. */
	form?: Record<string, string>;
	at: number;
	/** The client's port: equal ports mean one kept-alive connection. */
	remotePort: number | undefined;
}

export type AnswerSource = ScriptedAnswer | ((request: UpstreamRequest) => ScriptedAnswer);

interface Account {
	password: string;
	shape: LoginShape;
	tokens: LinkedCredentials;
}

/**
 * A local stand-in of both endpoints of docs/upstream.md on one node:http server (127.0.0.1, a random port). It records
 * every request and answers from a script, then from a default: generation checks the `key` and echoes the
 * prompt; login checks the accounts added with {@link UpstreamStandIn.addAccount}.
 */
export class UpstreamStandIn {
	readonly baseUrl: string;
	readonly authBaseUrl: string;
	readonly pathPrefix: string;
	readonly apiKey: string;
	readonly model: string;
	readonly requests: UpstreamRequest[] = [];
	readonly #server: Server;
	readonly #sockets = new Set<Socket>();
	readonly #timers = new Set<NodeJS.Timeout>();
	readonly #waiters = new Set<() => void>();
	readonly #accounts = new Map<string, Account>();
	#generationScript: ScriptedAnswer[] = [];
	#loginScript: ScriptedAnswer[] = [];
	#defaultGeneration: AnswerSource = (request) => this.#answerGeneration(request);
	#defaultLogin: AnswerSource = (request) => this.#answerLogin(request);

	private constructor(server: Server, options: { apiKey?: string; model?: string; pathPrefix?: string }) {
		this.#server = server;
		const { port } = server.address() as AddressInfo;
		this.baseUrl = `http://127.0.0.1:${port}`;
		this.authBaseUrl = `http://127.0.0.1:${port}`;
		this.apiKey = options.apiKey ?? `stand-in-key-${randomBytes(6).toString('hex')}`;
		this.model = options.model ?? 'textmodel-pro';
		this.pathPrefix = options.pathPrefix ?? 'tenant';
		server.on('connection', (socket) => {
			this.#sockets.add(socket);
			socket.on('close', () => this.#sockets.delete(socket));
		});
		server.on('request', (request, response) => this.#receive(request, response));
	}

	/** Starts a stand-in on a random port of 127.0.0.1. */
	static async start(options: { apiKey?: string; model?: string; pathPrefix?: string } = {}): Promise<UpstreamStandIn> {
		const server = createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		return new UpstreamStandIn(server, options);
	}

	/** Queues answers for the next generation requests, used in order before the default. */
	scriptGeneration(...answers: ScriptedAnswer[]): void {
		this.#generationScript.push(...answers);
	}

	setDefaultGeneration(answer: AnswerSource): void {
		this.#defaultGeneration = answer;
	}

	/** Queues answers for the next login requests, used in order before the default. */
	scriptLogin(...answers: ScriptedAnswer[]): void {
		this.#loginScript.push(...answers);
	}

	setDefaultLogin(answer: AnswerSource): void {
		this.#defaultLogin = answer;
	}

	/** An account the default login accepts, answered in `shape` (default `json-snake`) with `tokens`. */
	addAccount(email: string, password: string, shape: LoginShape = 'json-snake', tokens?: LinkedCredentials): void {
		this.#accounts.set(email, { password, shape, tokens: tokens ?? randomTokens() });
	}

	/** The tokens the default login issues for `email`. */
	tokensOf(email: string): LinkedCredentials | undefined {
		return this.#accounts.get(email)?.tokens;
	}

	/** Resolves once `count` requests have arrived in all; rejects after `timeoutMs` (default 5000). */
	async waitForRequests(count: number, timeoutMs = 5000): Promise<void> {
		if (this.requests.length >= count) return;
		await new Promise<void>((resolve, reject) => {
			const check = (): void => {
				if (this.requests.length < count) return;
				clearTimeout(timer);
				this.#waiters.delete(check);
				resolve();
			};
			const timer = setTimeout(() => {
				this.#waiters.delete(check);
				reject(new Error(`expected ${count} upstream requests, saw ${this.requests.length}`));
			}, timeoutMs);
			this.#waiters.add(check);
		});
	}

	/** Stops listening and destroys every connection, hung ones included. */
	async stop(): Promise<void> {
		for (const timer of this.#timers) clearTimeout(timer);
		this.#timers.clear();
		const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
		for (const socket of this.#sockets) socket.destroy();
		await closed;
	}

	#receive(request: IncomingMessage, response: ServerResponse): void {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const record = this.#record(request, Buffer.concat(chunks).toString('utf8'));
			this.requests.push(record);
			for (const waiter of [...this.#waiters]) waiter();
			this.#send(request, response, this.#answerFor(record));
		});
	}

	#record(request: IncomingMessage, rawBody: string): UpstreamRequest {
		const url = new URL(request.url ?? '/', 'http://stand-in');
		const method = request.method ?? 'GET';
		let endpoint: UpstreamRequest['endpoint'] = 'unknown';
		if (method === 'POST' && url.pathname === `/v1beta/models/${encodeURIComponent(this.model)}:generateContent`) {
			endpoint = 'generate';
		} else if (method === 'POST' && url.pathname === `/${this.pathPrefix}/api/auth/login`) {
			endpoint = 'login';
		}
		const record: UpstreamRequest = {
			endpoint,
			method,
			path: url.pathname,
			query: Object.fromEntries(url.searchParams),
			headers: { ...request.headers },
			rawBody,
			at: Date.now(),
			remotePort: request.socket.remotePort,
		};
		try {
			record.json = JSON.parse(rawBody) as unknown;
		} catch {
			// not JSON: leave json out
		}
		if (request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
			record.form = Object.fromEntries(new URLSearchParams(rawBody));
		}
		return record;
	}

	#answerFor(record: UpstreamRequest): ScriptedAnswer {
		if (record.endpoint === 'generate') return this.#generationScript.shift() ?? resolve(this.#defaultGeneration, record);
		if (record.endpoint === 'login') return this.#loginScript.shift() ?? resolve(this.#defaultLogin, record);
		return { status: 404, json: { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } } };
	}

	#answerGeneration(request: UpstreamRequest): ScriptedAnswer {
		if (request.query.key !== this.apiKey) {
			return { status: 403, json: { error: { code: 403, message: 'Permission denied', status: 'PERMISSION_DENIED' } } };
		}
		const json = request.json as { contents?: Array<{ parts?: Array<{ text?: unknown }> }> } | undefined;
		const prompt = json?.contents?.[0]?.parts?.[0]?.text;
		if (typeof prompt !== 'string') {
			return { status: 400, json: { error: { code: 400, message: 'contents is required', status: 'INVALID_ARGUMENT' } } };
		}
		return { json: safeResponse(`Answer to: ${prompt}`, { extra: { ...REAL_SERVICE_EXTRAS } }) };
	}

	#answerLogin(request: UpstreamRequest): ScriptedAnswer {
		const account = this.#accounts.get(request.form?.username ?? '');
		if (account === undefined || account.password !== request.form?.password) {
			return { status: 401, json: { error: 'invalid_credentials' } };
		}
		return loginResponse(account.shape, account.tokens);
	}

	#send(request: IncomingMessage, response: ServerResponse, answer: ScriptedAnswer): void {
		if (answer.hang === true) return;
		if (answer.until !== undefined) {
			const { until, ...rest } = answer;
			void until.then(
				() => this.#send(request, response, rest),
				() => this.#send(request, response, rest),
			);
			return;
		}
		this.#later(answer.delayMs, () => {
			if (answer.destroy === true) {
				request.socket.destroy();
				return;
			}
			if (response.destroyed) return;
			const { body, contentType } = render(answer);
			response.statusCode = answer.status ?? 200;
			if (contentType !== undefined) response.setHeader('content-type', contentType);
			for (const [name, value] of Object.entries(answer.headers ?? {})) response.setHeader(name, value);
			if (answer.stallBodyMs === undefined) {
				response.end(body);
				return;
			}
			// A known length, as a service that computed its answer first sends; the headers then leave at once.
			response.setHeader('content-length', Buffer.byteLength(body));
			response.flushHeaders();
			this.#later(answer.stallBodyMs, () => {
				if (!response.destroyed) response.end(body);
			});
		});
	}

	#later(delayMs: number | undefined, run: () => void): void {
		if (delayMs === undefined || delayMs <= 0) {
			run();
			return;
		}
		const timer = setTimeout(() => {
			this.#timers.delete(timer);
			run();
		}, delayMs);
		this.#timers.add(timer);
	}
}

function resolve(source: AnswerSource, request: UpstreamRequest): ScriptedAnswer {
	return typeof source === 'function' ? source(request) : source;
}

function render(answer: ScriptedAnswer): { body: string; contentType: string | undefined } {
	if (answer.json !== undefined) return { body: JSON.stringify(answer.json), contentType: 'application/json' };
	if (answer.body !== undefined) return { body: answer.body, contentType: 'text/plain; charset=utf-8' };
	return { body: '', contentType: undefined };
}

function randomTokens(): LinkedCredentials {
	return { accessToken: randomBytes(24).toString('base64url'), sessionToken: randomBytes(24).toString('base64url') };
}
