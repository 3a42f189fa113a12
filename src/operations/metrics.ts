import type { Client } from 'discord.js';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { VeilError, type VeilErrorCode } from '../errors/veilError.js';

/**
 * How an ask ended: shown or hidden by the verdict, refused (not linked, or the account refused), turned away before
 * the upstream (busy, limited), failed, or cancelled by its asker.
 */
const ASK_OUTCOMES = ['shown', 'hidden', 'refused', 'busy', 'limited', 'error', 'cancelled'] as const;
export type AskOutcome = (typeof ASK_OUTCOMES)[number];

/** How an ask in a server ended, as /usage server counts it (see src/usage/usageOutcome.ts): `kind` or `kind:reason`. */
const USAGE_KINDS = {
	shown: [''],
	held: ['ratings', 'automod', 'other'],
	refused: ['limits', 'busy', 'link', 'files', 'other'],
	failed: [''],
} as const;

/** How a /link submit ended. */
const LINK_OUTCOMES = ['linked', 'refused', 'limited', 'invalid', 'error'] as const;
export type LinkOutcome = (typeof LINK_OUTCOMES)[number];

/**
 * One bot's metrics (see the README's Operators section), on its own registry: tests run several bots in one
 * process. Labels hold only the fixed values below and shard ids: never a user, a server, a prompt or a secret.
 */
export class Metrics {
	readonly #registry = new Registry();
	#processMetrics = false;
	readonly #asks: Counter;
	readonly #links: Counter;
	readonly #generation: Histogram;
	readonly #storeErrors: Counter;
	readonly #votes: Counter;
	readonly #usage: Counter;
	readonly #lineWait: Histogram;
	// The line changes twice an ask; its gauges are set from the latest counts when they are read.
	readonly #line = { waiting: 0, running: 0 };
	readonly #clients = new Set<Client>();

	constructor() {
		const registers = [this.#registry];
		const line = this.#line;
		const clients = this.#clients;
		this.#asks = new Counter({ name: 'veil_asks_total', help: 'Asks answered, by outcome.', labelNames: ['outcome'], registers });
		this.#links = new Counter({ name: 'veil_links_total', help: '/link submits, by outcome.', labelNames: ['outcome'], registers });
		// Every outcome is exported from the start, at 0, so a rate over it is defined before the first of its kind.
		for (const outcome of ASK_OUTCOMES) this.#asks.inc({ outcome }, 0);
		for (const outcome of LINK_OUTCOMES) this.#links.inc({ outcome }, 0);
		this.#generation = new Histogram({
			name: 'veil_generation_duration_seconds',
			help: 'Time of one generation call, retries included, whatever its result.',
			buckets: [0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120, 180],
			registers,
		});
		new Gauge({
			name: 'veil_ask_queue_length',
			help: 'Asks waiting in line for a generation slot.',
			registers,
			collect() {
				this.set(line.waiting);
			},
		});
		new Gauge({
			name: 'veil_asks_in_flight',
			help: 'Generation calls in flight.',
			registers,
			collect() {
				this.set(line.running);
			},
		});
		this.#usage = new Counter({
			name: 'veil_usage_asks_total',
			help: 'Asks in servers that installed Veil, summed over servers, by how they ended and why: what /usage server counts.',
			labelNames: ['outcome', 'reason'],
			registers,
		});
		for (const [outcome, reasons] of Object.entries(USAGE_KINDS)) for (const reason of reasons) this.#usage.inc({ outcome, reason }, 0);
		this.#lineWait = new Histogram({
			name: 'veil_ask_line_wait_seconds',
			help: 'Time an ask waited in line for a generation slot (0 when a slot was free).',
			buckets: [0, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300],
			registers,
		});
		this.#storeErrors = new Counter({ name: 'veil_store_errors_total', help: 'Store operations that failed or timed out.', registers });
		// Counts of votes, never whose or on which answer: a rate of 👎 over 👍 is what an operator reads.
		this.#votes = new Counter({
			name: 'veil_answer_votes_total',
			help: '👍 / 👎 on shown answers, by vote; a changed vote counts once more, as `changed`.',
			labelNames: ['vote', 'change'],
			registers,
		});
		for (const vote of ['up', 'down']) for (const change of ['new', 'changed']) this.#votes.inc({ vote, change }, 0);
		new Gauge({
			name: 'veil_gateway_ping_seconds',
			help: "Each shard's last heartbeat round trip; absent until its first.",
			labelNames: ['shard'],
			registers,
			collect() {
				this.reset();
				for (const client of clients) {
					for (const [id, shard] of client.ws.shards) if (shard.ping >= 0) this.set({ shard: String(id) }, shard.ping / 1000);
				}
			},
		});
	}

	/**
	 * Adds prom-client's process defaults (CPU, memory, event loop lag, handles), once. Called when the operators'
	 * endpoint starts: they keep an event-loop delay monitor and a GC observer running, which a process that serves
	 * no /metrics (no METRICS_PORT) would pay for with nothing reading them.
	 */
	collectProcessMetrics(): void {
		if (this.#processMetrics) return;
		this.#processMetrics = true;
		collectDefaultMetrics({ register: this.#registry });
	}

	recordAsk(outcome: AskOutcome): void {
		this.#asks.inc({ outcome });
	}

	recordLink(outcome: LinkOutcome): void {
		this.#links.inc({ outcome });
	}

	/** An ask counted in its server's usage: `outcome` as /usage server has it (`shown`, `held:automod`, …). */
	recordUsage(outcome: string): void {
		const [kind = '', reason = ''] = outcome.split(':');
		this.#usage.inc({ outcome: kind, reason });
	}

	observeLineWait(seconds: number): void {
		this.#lineWait.observe(seconds);
	}

	observeGeneration(seconds: number): void {
		this.#generation.observe(seconds);
	}

	/** For admission: how many generation calls run, and how many asks wait in line. */
	setLine(running: number, waiting: number): void {
		this.#line.running = running;
		this.#line.waiting = waiting;
	}

	/** A member's vote on an answer: their first on it (`new`), or one that replaced their other vote. */
	recordVote(vote: 'up' | 'down', change: 'new' | 'changed'): void {
		this.#votes.inc({ vote, change });
	}

	recordStoreError(): void {
		this.#storeErrors.inc();
	}

	/** Reports this client's shards' pings until the returned function is called. */
	watchGateway(client: Client): () => void {
		this.#clients.add(client);
		return () => this.#clients.delete(client);
	}

	/** The Prometheus text of every metric, and its content type. */
	async text(): Promise<{ contentType: string; body: string }> {
		return { contentType: this.#registry.contentType, body: await this.#registry.metrics() };
	}
}

// Error codes that mean an outcome other than "error"; an admission refusal adds its own codes here.
const OUTCOME_OF_CODE = {
	upstream_refused: 'refused',
	ask_busy: 'busy',
	ask_in_progress: 'limited',
	ask_rate_limited: 'limited',
	ask_daily_limit: 'limited',
	// The asker pressed Cancel while their ask waited or was generated.
	ask_cancelled: 'cancelled',
	// Regenerate pressed again while the first press's call runs: the one call answers both.
	regenerate_in_progress: 'limited',
	// A file Veil does not read, or past a cap: refused before or instead of going upstream.
	file_unsupported: 'refused',
	file_too_many: 'refused',
	file_too_large: 'refused',
	file_too_long: 'refused',
	files_too_long: 'refused',
	file_not_utf8: 'refused',
	file_pdf_unreadable: 'refused',
	file_pdf_pages: 'refused',
	file_pdf_large: 'refused',
	// The breaker open: the service is down, and the member gets that error without the wait.
	upstream_breaker_open: 'error',
	// The rest fail an ask, or are not an ask's: an error. Every code is named, so a new one must be placed.
	upstream_unavailable: 'error',
	upstream_invalid: 'error',
	upstream_rejected: 'error',
	file_not_cdn: 'error',
	file_unavailable: 'error',
	file_timeout: 'error',
	file_pdf_slow: 'error',
	store_unavailable: 'error',
	store_write_unconfirmed: 'error',
	seal_invalid: 'error',
	conversation_expired: 'error',
	form_expired: 'error',
	message_without_text: 'error',
	shutting_down: 'error',
	prompt_empty: 'error',
	prompt_too_long: 'error',
	language_unknown: 'error',
	link_bad_email: 'error',
	link_bad_password: 'error',
	link_rate_limited: 'error',
	login_invalid_credentials: 'error',
	login_rate_limited: 'error',
	login_unavailable: 'error',
	login_unreadable: 'error',
	flag_not_found: 'error',
	instructions_empty: 'error',
	instructions_text_and_clear: 'error',
	instructions_too_long: 'error',
	limits_negative: 'error',
	missing_permission: 'error',
	modlog_permissions: 'error',
	modlog_unknown_channel: 'error',
	not_in_guild: 'error',
	not_owner: 'error',
	release_dm_failed: 'error',
	release_dms_closed: 'error',
	release_erased: 'error',
	release_failed: 'error',
	release_forbidden: 'error',
	report_already: 'error',
	report_nobody: 'error',
	review_already: 'error',
	review_closed: 'error',
	review_gone: 'error',
	review_not_asker: 'error',
	unknown_command: 'error',
	unknown_component: 'error',
	unsupported_interaction: 'error',
	wrong_decision: 'error',
	not_asker: 'error',
	version_expired: 'error',
	thread_exists: 'error',
	thread_not_allowed: 'error',
} as const satisfies Record<VeilErrorCode, AskOutcome>;
/**
 * The /link submits the member or a limit ended. Every other code a submit can end with (the account service or
 * the store failing, a shutdown) is Veil failing to link: `error`, as is any code added later until it is named here.
 */
const LINK_OUTCOME_OF_CODE: ReadonlyMap<VeilErrorCode, Exclude<LinkOutcome, 'linked' | 'error'>> = new Map([
	['login_invalid_credentials', 'refused'],
	['login_rate_limited', 'limited'],
	['link_rate_limited', 'limited'],
	['link_bad_email', 'invalid'],
	['link_bad_password', 'invalid'],
]);

/** The outcome of an ask that ended with this error. */
export function askOutcomeOf(error: unknown): AskOutcome {
	return error instanceof VeilError ? OUTCOME_OF_CODE[error.code] : 'error';
}

export function linkOutcomeOf(error: unknown): LinkOutcome {
	return (error instanceof VeilError && LINK_OUTCOME_OF_CODE.get(error.code)) || 'error';
}
