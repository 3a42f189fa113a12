import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIAttachment } from 'discord.js';
import { snowflake } from './ids.js';
import { requestTarget } from './requestTarget.js';
import type { DiscordState } from './model.js';

/** The path every CDN address of the emulator starts with: its stand-in of `https://cdn.discordapp.com/`. */
export const CDN_PATH = '/cdn/';

/** A file a member attaches, as the emulator's CDN serves it. */
export interface CdnFileOptions {
	filename: string;
	bytes: Buffer | string;
	/** What Discord reports; null leaves `content_type` out, as Discord does for a type it could not tell. */
	contentType?: string | null;
	/** The size declared in the payload. Default: the bytes' length. */
	size?: number;
	/** Answered instead of the bytes: a 302 to this address. */
	redirectTo?: string;
	/** Headers (and no Content-Length), then the body only after this long, sent slowly. */
	stallMs?: number;
	/** Served without a Content-Length, in chunks, as a streamed body. */
	chunked?: boolean;
	/** The address the payload names instead of the CDN's own: a host that is not the CDN, say. */
	url?: string;
}

interface CdnFile {
	readonly attachment: APIAttachment;
	readonly options: CdnFileOptions;
	readonly bytes: Buffer;
}

/**
 * Discord's CDN, as far as attachments go: each file a test attaches is served at a signed-looking address under
 * {@link CDN_PATH} (query `ex`, `is`, `hm` as Discord's), as are the files the bot uploaded. Every GET is recorded,
 * so a test can tell what was fetched.
 */
export class Cdn {
	readonly #files = new Map<string, CdnFile>();
	readonly #state: DiscordState;
	/** Every path asked for, in order. */
	readonly requests: string[] = [];

	constructor(state: DiscordState) {
		this.#state = state;
	}

	/** Registers a file and returns the attachment object a payload carries for it. */
	add(options: CdnFileOptions): APIAttachment {
		const id = snowflake();
		const bytes = typeof options.bytes === 'string' ? Buffer.from(options.bytes, 'utf8') : options.bytes;
		const expires = Math.floor(Date.now() / 1000) + 86_400;
		const own = `${this.#state.baseUrl}${CDN_PATH}ephemeral-attachments/${id}/${encodeURIComponent(options.filename)}?ex=${expires.toString(16)}&is=${Math.floor(Date.now() / 1000).toString(16)}&hm=${id}&`;
		const url = options.url ?? own;
		const attachment: APIAttachment = { id, filename: options.filename, size: options.size ?? bytes.length, url, proxy_url: url, ephemeral: true };
		if (options.contentType !== null) attachment.content_type = options.contentType ?? 'text/plain; charset=utf-8';
		this.#files.set(id, { attachment, options, bytes });
		return attachment;
	}

	/** The attachment registered under `id`, for `data.resolved.attachments`. */
	attachment(id: string): APIAttachment | undefined {
		return this.#files.get(id)?.attachment;
	}

	/** Answers a request under {@link CDN_PATH}; false for any other path. */
	handle(req: IncomingMessage, res: ServerResponse): boolean {
		const path = requestTarget(req.url).pathname;
		if (!path.startsWith(CDN_PATH)) return false;
		this.requests.push(path);
		// ephemeral-attachments/<id>/<name> (a member's) or attachments/<channel>/<id>/<name> (the bot's uploads).
		const segments = path.slice(CDN_PATH.length).split('/');
		const id = segments[0] === 'ephemeral-attachments' ? segments[1] : segments[2];
		const file = id === undefined ? undefined : this.#files.get(id);
		if (file) {
			this.#serve(file, res);
			return true;
		}
		for (const message of this.#state.messages.values()) {
			const uploaded = message.files.find((f) => f.attachmentId === id);
			if (uploaded) {
				res.writeHead(200, { 'content-type': uploaded.contentType, 'content-length': uploaded.data.length }).end(uploaded.data);
				return true;
			}
		}
		res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
		return true;
	}

	#serve(file: CdnFile, res: ServerResponse): void {
		const { options, bytes } = file;
		const type = file.attachment.content_type ?? 'application/octet-stream';
		if (options.redirectTo) {
			res.writeHead(302, { location: options.redirectTo }).end();
			return;
		}
		if (options.stallMs !== undefined || options.chunked) {
			res.writeHead(200, { 'content-type': type });
			const timer = setTimeout(() => {
				let offset = 0;
				const step = () => {
					if (res.destroyed) return;
					if (offset >= bytes.length) return void res.end();
					res.write(bytes.subarray(offset, offset + 16_384));
					offset += 16_384;
					setImmediate(step);
				};
				step();
			}, options.stallMs ?? 0);
			res.on('close', () => clearTimeout(timer));
			return;
		}
		res.writeHead(200, { 'content-type': type, 'content-length': bytes.length }).end(bytes);
	}
}
