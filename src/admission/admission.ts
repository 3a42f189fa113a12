import { AcksFirst } from './acksFirst.js';
import { AskInProgressError, MemberRateError, ServiceDownError } from './admissionErrors.js';
import { AskLine, type Ticket } from './askLine.js';
import { CircuitBreaker, isServiceFailure, type CircuitBreakerOptions, type Pass } from './circuitBreaker.js';
import { DailyLimit, type Counter, type CountedAsk, type DailyAsk } from './dailyLimit.js';
import { LinkRate } from './linkRate.js';
import { MemberRate } from './memberRate.js';
import { OneAskPerMember } from './oneAskPerMember.js';
import { UpstreamError } from '../generation/upstreamError.js';

/**
 * A generation that takes longer than this offers Cancel on its message: most answers come sooner, and cost no edit
 * for a button no one would have time to press.
 */
export const CANCEL_OFFER_MS = 3000;

interface AdmissionOptions {
	readonly concurrency: number;
	readonly queueMax: number;
	readonly memberPerMinute: number;
	/** Link submits this process may send to the account service in a minute; 0: no cap. Default 0. */
	readonly linkPerProcessPerMinute?: number;
	/** The store's atomic counter, for the daily limit. */
	readonly counter: Counter;
	readonly breaker?: CircuitBreakerOptions;
	readonly positionIntervalMs?: number;
	/** How long a generation runs before its message offers Cancel. Default {@link CANCEL_OFFER_MS}. */
	readonly cancelOfferMs?: number;
	/** Told how many asks hold a slot and how many wait, after every change. */
	readonly onLineChange?: (holding: number, waiting: number) => void;
	/** Told how long each ask waited in line, in ms. */
	readonly onLineWait?: (ms: number) => void;
	/** Told how long each call upstream took, in ms, however it ended. */
	readonly onCallTime?: (ms: number) => void;
}

/**
 * Everything that decides whether an ask goes upstream, for one process: one ask per member, the member's rate,
 * the circuit breaker, the server's daily limit and the line. Built once at start; {@link Admission.admit} starts
 * each ask's way through.
 */
export class Admission {
	readonly line: AskLine;
	/** How long a generation runs before its message offers Cancel. */
	readonly cancelOfferMs: number;
	readonly breaker: CircuitBreaker;
	/** How often /link may call the account service. */
	readonly link: LinkRate;
	readonly #members = new OneAskPerMember();
	readonly #rate: MemberRate;
	readonly #perMinute: number;
	readonly #daily: DailyLimit;
	readonly #acksFirst = new AcksFirst();
	/** @internal */
	readonly onCallTime: (ms: number) => void;

	constructor(options: AdmissionOptions) {
		this.onCallTime = options.onCallTime ?? (() => undefined);
		this.line = new AskLine({
			concurrency: options.concurrency,
			maxWaiting: options.queueMax,
			positionIntervalMs: options.positionIntervalMs,
			onChange: options.onLineChange,
			onWaited: options.onLineWait,
		});
		this.breaker = new CircuitBreaker(options.breaker);
		this.cancelOfferMs = options.cancelOfferMs ?? CANCEL_OFFER_MS;
		this.link = new LinkRate(options.linkPerProcessPerMinute ?? 0);
		this.#rate = new MemberRate(options.memberPerMinute);
		this.#perMinute = options.memberPerMinute;
		this.#daily = new DailyLimit(options.counter);
	}

	/**
	 * The checks that cost nothing, made before anything is read or acknowledged: the member's one ask, their rate
	 * and the breaker. Throws the refusal; otherwise the caller must {@link AdmittedAsk.end} what it gets.
	 */
	admit(memberId: string, now = Date.now()): AdmittedAsk {
		const release = this.#members.tryHold(memberId);
		if (!release) throw new AskInProgressError();
		try {
			// One ask per member makes the rate's check and its later record safe across the awaits between them.
			this.checkPace(memberId, now);
			const pass = this.breaker.tryPass();
			if (!pass) throw new ServiceDownError();
			return new AdmittedAsk(this, memberId, pass, release, this.#acksFirst);
		} catch (error) {
			release();
			throw error;
		}
	}

	/**
	 * The member's pace alone, for a command that stores something before its ask can be admitted (Ask Veil's form):
	 * throws the refusal that admit would, and counts nothing.
	 */
	checkPace(memberId: string, now = Date.now()): void {
		const retryAt = this.#rate.nextAllowedAt(memberId, now);
		if (retryAt !== undefined) throw new MemberRateError(this.#perMinute, retryAt);
	}

	/** @internal */
	recordStart(memberId: string): void {
		this.#rate.record(memberId, Date.now());
	}

	/** @internal */
	countDaily(ask: DailyAsk): Promise<CountedAsk | undefined> {
		return this.#daily.count(ask);
	}

	/** @internal */
	giveBackDaily(counted: CountedAsk): Promise<void> {
		return this.#daily.giveBack(counted);
	}
}

/** One ask on its way through admission; {@link end} gives back whatever it still holds, exactly once. */
export class AdmittedAsk {
	readonly #admission: Admission;
	readonly #memberId: string;
	readonly #pass: Pass;
	readonly #releaseMember: () => void;
	readonly #acksFirst: AcksFirst;
	/** Tells {@link AcksFirst} this ask no longer waits for its acknowledgement. */
	readonly #acknowledged: () => void;
	#ticket: Ticket | undefined;
	#counted: CountedAsk | undefined;

	constructor(admission: Admission, memberId: string, pass: Pass, releaseMember: () => void, acksFirst: AcksFirst) {
		this.#admission = admission;
		this.#memberId = memberId;
		this.#pass = pass;
		this.#releaseMember = releaseMember;
		this.#acksFirst = acksFirst;
		this.#acknowledged = acksFirst.arrived();
	}

	/**
	 * The ask is acknowledged: it now lets the acknowledgements of asks that arrived after it go first (see
	 * {@link AcksFirst}), then goes on.
	 */
	acknowledged(signal: AbortSignal): Promise<void> {
		this.#acknowledged();
		return this.#acksFirst.turn(signal);
	}

	/** Takes a place in line, or keeps the one taken already (an early deferral's); a full line throws the busy refusal. */
	enterLine(signal: AbortSignal): Ticket {
		this.#ticket ??= this.#admission.line.enter(signal);
		return this.#ticket;
	}

	/** Counts the ask in the server's daily limit, or throws its refusal. */
	async countDaily(ask: Omit<DailyAsk, 'memberId' | 'now'>): Promise<void> {
		this.#counted = await this.#admission.countDaily({ ...ask, memberId: this.#memberId, now: Date.now() });
	}

	/** Gives back the daily count of an ask cancelled before it reached the service (once; nothing if none was taken). */
	async giveBackDaily(): Promise<void> {
		const counted = this.#counted;
		this.#counted = undefined;
		if (counted) await this.#admission.giveBackDaily(counted);
	}

	/** Counts the ask against the member's pace, once every refusal is behind it: it is now really asked. */
	started(): void {
		this.#admission.recordStart(this.#memberId);
	}

	/**
	 * Runs the generation call under the breaker: refused at once when the breaker opened while this ask waited,
	 * and its outcome told to the breaker (a failure only when the service did not answer at all). Once the call
	 * is over, its slot goes to the next in line and the member may ask again: sending the answer is Discord's
	 * work, and a member who has read it must not be told their ask is still running.
	 */
	async callUpstream<T>(call: () => Promise<T>): Promise<T> {
		let started: number | undefined;
		try {
			if (!this.#pass.mayProceed()) throw new ServiceDownError();
			started = performance.now();
			const value = await call();
			this.#pass.succeeded();
			return value;
		} catch (error) {
			if (isServiceFailure(error)) this.#pass.failed();
			else if (isAnswerFromService(error)) this.#pass.succeeded();
			else this.#pass.abandon();
			throw error;
		} finally {
			if (started !== undefined) this.#admission.onCallTime(performance.now() - started);
			this.end();
		}
	}

	/** Gives back the place in line, the breaker's pass and the member's one ask; a second call does nothing. */
	end(): void {
		this.#acknowledged();
		this.#ticket?.leave();
		this.#pass.abandon();
		this.#releaseMember();
	}
}

/** An error that is the service's own answer (a 4xx, a 429, a body Veil cannot read): it is up. */
function isAnswerFromService(error: unknown): boolean {
	return error instanceof UpstreamError && error.status !== undefined;
}
