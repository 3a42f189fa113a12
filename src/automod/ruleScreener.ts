import { Worker } from 'node:worker_threads';
import type { Logger } from '../logging/logger.js';
import { appliesToVeil, type AutomodRule } from './automodRule.js';
import type { MatchContext, RuleMatch } from './ruleMatcher.js';
import type { ScreenReply, ScreenRequest, ScreenWorkerData } from './screenWorker.js';

/** What reading a text against a server's rules found: the rules it matched, or a rule too costly to finish. */
export type Screening =
	| { readonly kind: 'matched'; readonly matches: readonly RuleMatch[] }
	| { readonly kind: 'tooCostly'; readonly ruleId: string; readonly ruleName: string };

/** A server's rules as one version: a change makes a new one, which the reading thread compiles once. */
export interface RuleSet {
	readonly guildId: string;
	readonly version: number;
	/** The rules Veil applies, in their order. */
	readonly rules: readonly AutomodRule[];
}

export interface ScreenerOptions {
	/** How long a reading may take once its matcher is built, in milliseconds. */
	readonly budgetMs?: number;
	/** When the thread is stopped, whatever it is doing (a build, one long regex search). */
	readonly hardLimitMs?: number;
	/** What the thread may keep of all servers' matchers, and of one, in bytes. */
	readonly cacheBytes?: number;
	readonly matcherBytes?: number;
}

interface Thread {
	readonly worker: Worker;
	readonly progress: Int32Array;
	/** The version of each server's rules this thread was sent. */
	readonly sent: Map<string, number>;
	/** Whether it has loaded; until then the hard limits of what it holds wait to start. */
	ready: boolean;
	readonly armOnReady: Array<() => void>;
}

interface Pending {
	readonly request: ScreenRequest;
	readonly rules: RuleSet;
	readonly resolve: (screening: Screening) => void;
	timer: NodeJS.Timeout | undefined;
}

/** Servers whose rules were too costly for a text this long: a longer one is refused at once, not read again. */
const MAX_REMEMBERED_COSTLY = 1000;

/** Under vitest and tsx the modules are TypeScript: the thread registers tsx before it loads its own. */
function startThread(workerData: ScreenWorkerData, heapMb: number): Worker {
	const options = { workerData, resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 16 } };
	if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./screenWorker.js', import.meta.url), options);
	const entry = new URL('./screenWorker.ts', import.meta.url).href;
	const source = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
	return new Worker(source, { ...options, eval: true });
}

/**
 * Reads texts against servers' AutoMod rules on a thread of its own, started at the first reading: whatever the
 * rules and the text, the bot's event loop only posts the text and waits. A reading past `budgetMs` is too costly
 * (the thread names the rule); a thread past `hardLimitMs`, out of memory or failing is stopped, every reading it
 * held is too costly, and the next reading starts a new one. Never rejects.
 */
export class RuleScreener {
	readonly #budgetMs: number;
	readonly #hardLimitMs: number;
	readonly #cacheBytes: number;
	readonly #matcherBytes: number;
	#thread: Thread | undefined;
	readonly #pending = new Map<number, Pending>();
	readonly #costly = new Map<string, { readonly version: number; readonly length: number; readonly screening: Screening }>();
	#nextId = 0;

	constructor(
		private readonly log: Logger,
		options: ScreenerOptions = {},
	) {
		this.#budgetMs = options.budgetMs ?? 1000;
		this.#hardLimitMs = options.hardLimitMs ?? 10_000;
		this.#cacheBytes = options.cacheBytes ?? 64 * 1024 * 1024;
		this.#matcherBytes = options.matcherBytes ?? 16 * 1024 * 1024;
	}

	screen(rules: RuleSet, text: string, context: MatchContext): Promise<Screening> {
		if (rules.rules.length === 0 || text === '') return Promise.resolve({ kind: 'matched', matches: [] });
		const costly = this.#costly.get(rules.guildId);
		if (costly && costly.version === rules.version && text.length >= costly.length) return Promise.resolve(costly.screening);
		const thread = this.#start();
		const id = this.#nextId++;
		const sendRules = thread.sent.get(rules.guildId) !== rules.version;
		const request: ScreenRequest = { id, guildId: rules.guildId, version: rules.version, text, context, budgetMs: this.#budgetMs };
		if (sendRules) thread.sent.set(rules.guildId, rules.version);
		return new Promise((resolve) => {
			const pending: Pending = { request, rules, resolve, timer: undefined };
			const arm = () => {
				if (this.#pending.has(id)) pending.timer = setTimeout(() => void this.#stop(thread.worker, 'past its hard limit'), this.#hardLimitMs);
			};
			this.#pending.set(id, pending);
			if (thread.ready) arm();
			else thread.armOnReady.push(arm);
			thread.worker.postMessage(sendRules ? { ...request, rules: rules.rules } : request);
		});
	}

	/** Stops the thread: readings it held are too costly. */
	async close(): Promise<void> {
		const thread = this.#thread;
		if (thread) await this.#stop(thread.worker, 'closing');
	}

	#start(): Thread {
		if (this.#thread) return this.#thread;
		const progress = new SharedArrayBuffer(4);
		const heapMb = Math.ceil((this.#cacheBytes + 2 * this.#matcherBytes) / (1024 * 1024)) + 32;
		const worker = startThread({ progress, cacheBytes: this.#cacheBytes, matcherBytes: this.#matcherBytes }, heapMb);
		// The thread never keeps the process alive: a reading in flight does, by its timer.
		worker.unref();
		worker.on('message', (reply: ScreenReply) => this.#settle(worker, reply));
		worker.on('error', (error) => {
			this.log.warn({ err: error }, 'the AutoMod reading thread failed; the readings it held are refused');
			void this.#stop(worker, 'failed');
		});
		worker.on('exit', () => void this.#stop(worker, 'exited'));
		this.#thread = { worker, progress: new Int32Array(progress), sent: new Map(), ready: false, armOnReady: [] };
		return this.#thread;
	}

	#settle(worker: Worker, reply: ScreenReply): void {
		if ('ready' in reply) {
			const thread = this.#thread;
			if (thread?.worker !== worker) return;
			thread.ready = true;
			for (const arm of thread.armOnReady.splice(0)) arm();
			return;
		}
		const pending = this.#pending.get(reply.id);
		if (!pending) return;
		if (reply.kind === 'unknown') {
			// The thread dropped the matcher for memory: send the rules again.
			worker.postMessage({ ...pending.request, rules: pending.rules.rules });
			return;
		}
		this.#pending.delete(reply.id);
		clearTimeout(pending.timer);
		if (reply.kind === 'matched') {
			for (const ruleId of reply.unreadable ?? []) {
				this.log.warn({ guildId: pending.rules.guildId, ruleId }, 'an AutoMod regex the linear-time engine cannot read is left out');
			}
			return pending.resolve({ kind: 'matched', matches: reply.matches });
		}
		this.#tooCostly(pending, { kind: 'tooCostly', ruleId: reply.ruleId, ruleName: reply.ruleName });
	}

	#tooCostly(pending: Pending, screening: Screening): void {
		const { guildId, version } = pending.rules;
		const known = this.#costly.get(guildId);
		const length = Math.min(pending.request.text.length, known?.version === version ? known.length : Infinity);
		this.#costly.delete(guildId);
		this.#costly.set(guildId, { version, length, screening });
		if (this.#costly.size > MAX_REMEMBERED_COSTLY) this.#costly.delete(this.#costly.keys().next().value as string);
		pending.resolve(screening);
	}

	async #stop(worker: Worker, why: string): Promise<void> {
		const thread = this.#thread;
		if (!thread || thread.worker !== worker) return;
		this.#thread = undefined;
		const index = Atomics.load(thread.progress, 0);
		// The thread reads one text at a time, in order: the oldest held is the one it was on; the others go to the next.
		const held = [...this.#pending.values()].sort((a, b) => a.request.id - b.request.id);
		this.#pending.clear();
		held.forEach((pending, position) => {
			clearTimeout(pending.timer);
			const applied = pending.rules.rules.filter(appliesToVeil);
			const rule = applied[index] ?? applied[0];
			const screening: Screening = { kind: 'tooCostly', ruleId: rule?.id ?? '', ruleName: rule?.name ?? '' };
			if (why === 'closing') pending.resolve(screening);
			else if (position === 0) this.#tooCostly(pending, screening);
			else void this.screen(pending.rules, pending.request.text, pending.request.context).then(pending.resolve);
		});
		if (why !== 'closing') this.log.warn({ why }, 'the AutoMod reading thread was stopped; the next reading starts another');
		await worker.terminate();
	}
}
