import { time, TimestampStyles } from 'discord.js';
import { sentence } from '../i18n/translate.js';
import { VeilError } from '../errors/veilError.js';

/**
 * An ask (or a /link) turned away before anything went upstream, to the member alone; its code says which kind,
 * for the metrics.
 */
abstract class AdmissionRefusal extends VeilError {
	constructor(options: ConstructorParameters<typeof VeilError>[0]) {
		super({ private: true, ...options });
	}
}

/** `ASK_QUEUE_MAX` asks already wait. */
export class LineFullError extends AdmissionRefusal {
	override readonly name = 'LineFullError';

	constructor(waiting: number) {
		super({ code: 'ask_busy', message: `the line is full: ${waiting} asks wait`, answer: sentence('members.admission.busy') });
	}
}

/** The member already has an ask waiting or running in this process. */
export class AskInProgressError extends AdmissionRefusal {
	override readonly name = 'AskInProgressError';

	constructor() {
		super({ code: 'ask_in_progress', message: 'the member already has an ask in progress', answer: sentence('members.admission.stillAnswering') });
	}
}

/** Past `ASK_MEMBER_PER_MINUTE`. */
export class MemberRateError extends AdmissionRefusal {
	override readonly name = 'MemberRateError';
	readonly retryAt: number;

	constructor(perMinute: number, retryAt: number) {
		super({
			code: 'ask_rate_limited',
			message: `past ${perMinute} asks a minute for this member`,
			answer: sentence('members.admission.rateLimited', { count: perMinute, retryAt: relativeTime(retryAt) }),
		});
		this.retryAt = retryAt;
	}
}

/** A /link submit past the member's limit, or past the process's `LINK_PER_PROCESS_PER_MINUTE`. */
export class LinkRateError extends AdmissionRefusal {
	override readonly name = 'LinkRateError';
	readonly retryAt: number;

	constructor(whose: 'member' | 'process', limit: number, retryAt: number) {
		super({
			code: 'link_rate_limited',
			message:
				whose === 'member' ? `past ${limit} link attempts in 15 minutes for this member` : `past ${limit} link attempts a minute in this process`,
			answer:
				whose === 'member'
					? sentence('members.link.memberRateLimited', { count: limit, retryAt: relativeTime(retryAt) })
					: sentence('members.link.processRateLimited', { retryAt: relativeTime(retryAt) }),
		});
		this.retryAt = retryAt;
	}
}

/** Past the server's `asks_per_day`. */
export class DailyLimitError extends AdmissionRefusal {
	override readonly name = 'DailyLimitError';
	readonly resetsAt: number;

	/** `scope`: the server's `asks_per_day`, or ASK_USER_PER_DAY outside Veil's servers. */
	constructor(limit: number, resetsAt: number, scope: 'server' | 'outside' = 'server') {
		super({
			code: 'ask_daily_limit',
			message: `past the ${scope === 'server' ? "server's" : 'outside-servers'} limit of ${limit} asks a day for this member`,
			answer: sentence(scope === 'server' ? 'members.admission.dailyLimit' : 'members.admission.userDailyLimit', {
				count: limit,
				resetsAt: relativeTime(resetsAt),
			}),
		});
		this.resetsAt = resetsAt;
	}
}

/** The circuit breaker is open (or its one trial ask is under way): nothing goes upstream. */
export class ServiceDownError extends AdmissionRefusal {
	override readonly name = 'ServiceDownError';

	constructor() {
		// Once an ask has waited in line, the breaker may open before its turn: its "thinking…" says so, as any failure.
		super({
			code: 'upstream_breaker_open',
			message: 'the circuit breaker is open',
			answer: sentence('members.admission.serviceDown'),
			private: false,
		});
	}
}

/**
 * A Discord relative timestamp (`<t:UNIX:R>`), rounded up to the second so it never names a moment before the one
 * meant.
 */
function relativeTime(atMs: number): string {
	return time(Math.ceil(atMs / 1000), TimestampStyles.RelativeTime);
}

/** The asker pressed Cancel: the reason the ask's signal aborts with, so the line and the call stop at once. */
export class AskCancelledError extends AdmissionRefusal {
	override readonly name = 'AskCancelledError';

	constructor() {
		super({ code: 'ask_cancelled', message: 'the asker cancelled the ask', answer: sentence('answers.cancel.cancelled') });
	}
}
