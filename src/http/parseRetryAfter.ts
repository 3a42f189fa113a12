/**
 * The wait a `Retry-After` header asks for, in milliseconds: delay-seconds (`120`) or an HTTP date
 * (`Wed, 21 Oct 2015 07:28:00 GMT`, measured from `now`; a date in the past means 0). `undefined` when the header
 * is absent or unreadable, so the caller picks its own default.
 */
export function parseRetryAfterMs(value: string | readonly string[] | null | undefined, now: number = Date.now()): number | undefined {
	const header: unknown = Array.isArray(value) ? value[0] : value;
	if (typeof header !== 'string') return undefined;
	const trimmed = header.trim();
	if (trimmed === '') return undefined;
	if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
	// Date.parse also accepts bare numbers like "-5" or "1e3"; only a date with letters in it is a date here.
	if (!/[a-z]/i.test(trimmed)) return undefined;
	const at = Date.parse(trimmed);
	return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
