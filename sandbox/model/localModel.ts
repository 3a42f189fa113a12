import { createHash, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { requestTarget, type RequestTarget } from '../discord/requestTarget.js';
import { answerText, DEFAULT_CHOICES, generationBody, modelChangeSchema, modelChoicesSchema, readBody, type ModelChoices } from './answers.js';

/** One call to the local model, as the model panel shows it: what arrived and what went back. */
export interface ModelExchange {
	endpoint: 'generate' | 'login' | 'unknown';
	at: string;
	/** The path, without the query (it carries the key). */
	path: string;
	prompt?: string;
	/** The files that came with the prompt (the parts after it), as Veil sent them. */
	files?: string[];
	/** The HTTP status answered; 0 while an answer is held back (a time-out in progress). */
	status: number;
	/** Veil closed the connection before an answer: it gave up on this call (its time-out), whatever came later. */
	abandoned?: boolean;
	/** The answer's body, for a generation. */
	answer?: unknown;
}

const KEEP_EXCHANGES = 20;
/**
 * Veil's GENERATION_TIMEOUT_MS in the sandbox: short, so a time-out chosen in the model panel shows its outcome in
 * seconds, retries included. The panel says it beside the delay.
 */
export const VEIL_TIMEOUT_MS = 4000;
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The sandbox's model service on 127.0.0.1: both endpoints of the seed (generation and login) on one port. Its
 * answers are deterministic and rated as the model panel says; any e-mail and password log in.
 */
export class LocalModel {
	readonly baseUrl: string;
	readonly apiKey = `sandbox-${randomBytes(8).toString('hex')}`;
	readonly model = 'textmodel-pro';
	readonly pathPrefix = 'sandbox';
	/** 'changed' after every exchange and every new choice; 'choices' with the choices after every new choice. */
	readonly events = new EventEmitter();
	readonly exchanges: ModelExchange[] = [];
	#choices: ModelChoices = { ...DEFAULT_CHOICES };
	readonly #server: Server;
	readonly #sockets = new Set<Socket>();
	readonly #timers = new Set<NodeJS.Timeout>();

	private constructor(server: Server) {
		this.#server = server;
		this.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		server.on('connection', (socket) => {
			this.#sockets.add(socket);
			socket.on('close', () => this.#sockets.delete(socket));
		});
		server.on('request', (request, response) => this.#receive(request, response));
	}

	static async start(): Promise<LocalModel> {
		const server = createServer();
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(0, '127.0.0.1', resolve);
		});
		return new LocalModel(server);
	}

	get choices(): ModelChoices {
		return this.#choices;
	}

	/** Validates and applies the model panel's choices; throws a ZodError on anything else. */
	choose(input: unknown): ModelChoices {
		this.#choices = modelChoicesSchema.parse(input);
		this.events.emit('changed');
		this.events.emit('choices', this.#choices);
		return this.#choices;
	}

	/** Applies the choices a change names and keeps the others: a stale page never overrides what it did not touch. */
	update(change: unknown): ModelChoices {
		return this.choose({ ...this.#choices, ...modelChangeSchema.parse(change) });
	}

	async stop(): Promise<void> {
		for (const timer of this.#timers) clearTimeout(timer);
		const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
		for (const socket of this.#sockets) socket.destroy();
		await closed;
	}

	#receive(request: IncomingMessage, response: ServerResponse): void {
		const chunks: Buffer[] = [];
		let size = 0;
		request.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) request.destroy();
			else chunks.push(chunk);
		});
		request.on('end', () => this.#answer(request, response, Buffer.concat(chunks).toString('utf8')));
	}

	#answer(request: IncomingMessage, response: ServerResponse, rawBody: string): void {
		const url = requestTarget(request.url);
		const exchange: ModelExchange = { endpoint: 'unknown', at: new Date().toISOString(), path: url.pathname, status: 0 };
		this.#record(exchange);
		if (request.method === 'POST' && url.pathname === `/v1beta/models/${this.model}:generateContent`) {
			exchange.endpoint = 'generate';
			this.#generate(url, rawBody, exchange, response);
		} else if (request.method === 'POST' && url.pathname === `/${this.pathPrefix}/api/auth/login`) {
			exchange.endpoint = 'login';
			const form = new URLSearchParams(rawBody);
			const email = form.get('username') ?? '';
			if (!email || !form.get('password')) this.#send(response, exchange, 401, { error: 'invalid_credentials' });
			else this.#send(response, exchange, 200, { access_token: token('access', email), session_token: token('session', email), expires_in: 3600 });
		} else {
			this.#send(response, exchange, 404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
		}
	}

	#generate(url: RequestTarget, rawBody: string, exchange: ModelExchange, response: ServerResponse): void {
		if (url.searchParams.get('key') !== this.apiKey) {
			this.#send(response, exchange, 403, { error: { code: 403, message: 'Permission denied', status: 'PERMISSION_DENIED' } });
			return;
		}
		let body: unknown;
		try {
			body = JSON.parse(rawBody);
		} catch {
			body = undefined;
		}
		const turn = readBody(body);
		if (turn === undefined) {
			this.#send(response, exchange, 400, { error: { code: 400, message: 'contents is required', status: 'INVALID_ARGUMENT' } });
			return;
		}
		const { prompt, files, turns, instructions } = turn;
		exchange.prompt = prompt;
		if (files.length > 0) exchange.files = files;
		const { rating, delayMs, failure } = this.#choices;
		response.on('close', () => {
			if (response.writableFinished) return;
			exchange.abandoned = true;
			this.events.emit('changed');
		});
		// A time-out is an answer that never comes: Veil's own time-out ends the attempt, stop() the connection.
		if (failure === 'timeout') return;
		this.#later(delayMs, () => {
			if (failure === '500')
				this.#send(response, exchange, 500, { error: { code: 500, message: 'Internal error (chosen in the model panel)', status: 'INTERNAL' } });
			else this.#send(response, exchange, 200, generationBody(answerText(prompt, turns, files, instructions), rating));
		});
	}

	#send(response: ServerResponse, exchange: ModelExchange, status: number, json: unknown): void {
		// An answer to a call Veil gave up on reaches no one: the call stays "gave up", not this status.
		if (response.destroyed || exchange.abandoned) return;
		exchange.status = status;
		if (exchange.endpoint === 'generate') exchange.answer = json;
		this.events.emit('changed');
		if (response.destroyed) return;
		response.writeHead(status, { 'content-type': 'application/json' });
		response.end(JSON.stringify(json));
	}

	#record(exchange: ModelExchange): void {
		this.exchanges.push(exchange);
		if (this.exchanges.length > KEEP_EXCHANGES) this.exchanges.shift();
		this.events.emit('changed');
	}

	#later(delayMs: number, run: () => void): void {
		if (delayMs <= 0) return run();
		const timer = setTimeout(() => {
			this.#timers.delete(timer);
			run();
		}, delayMs);
		this.#timers.add(timer);
	}
}

/** The same e-mail always gets the same tokens: a deterministic stand-in of the account service. */
function token(kind: string, email: string): string {
	return createHash('sha256').update(`${kind}:${email}`).digest('base64url');
}
