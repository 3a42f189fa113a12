import { LinkRateError } from './admissionErrors.js';
import { MemberRate } from './memberRate.js';

/** Link submits one member may make in {@link MEMBER_WINDOW_MS}, per process: enough for a few typos. */
export const LINK_MEMBER_LIMIT = 5;
const MEMBER_WINDOW_MS = 15 * 60_000;
const PROCESS_WINDOW_MS = 60_000;
/** The one key the process-wide count is kept under. */
const WHOLE_PROCESS = '*';

/**
 * How often /link may reach the account service, per process: {@link LINK_MEMBER_LIMIT} submits per member in 15
 * minutes, and `perProcessPerMinute` in all (0: no cap), so nobody can guess passwords through Veil's address or
 * get that address limited for everyone.
 */
export class LinkRate {
	readonly #perMember = new MemberRate(LINK_MEMBER_LIMIT, MEMBER_WINDOW_MS);
	readonly #perProcess: MemberRate;
	readonly #perProcessPerMinute: number;

	constructor(perProcessPerMinute: number) {
		this.#perProcess = new MemberRate(perProcessPerMinute, PROCESS_WINDOW_MS);
		this.#perProcessPerMinute = perProcessPerMinute;
	}

	/**
	 * Counts one submit that is about to call the login, or throws the refusal that says when to try again. Check
	 * and count happen with no await between them, so two submits at once cannot both take the last place.
	 */
	take(memberId: string, now = Date.now()): void {
		const memberRetryAt = this.#perMember.nextAllowedAt(memberId, now);
		if (memberRetryAt !== undefined) throw new LinkRateError('member', LINK_MEMBER_LIMIT, memberRetryAt);
		const processRetryAt = this.#perProcess.nextAllowedAt(WHOLE_PROCESS, now);
		if (processRetryAt !== undefined) throw new LinkRateError('process', this.#perProcessPerMinute, processRetryAt);
		this.#perMember.record(memberId, now);
		this.#perProcess.record(WHOLE_PROCESS, now);
	}
}
