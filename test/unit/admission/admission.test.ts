import { describe, expect, it } from 'vitest';
import { Admission } from '../../../src/admission/admission.js';
import { AskInProgressError, DailyLimitError, LineFullError, MemberRateError, ServiceDownError } from '../../../src/admission/admissionErrors.js';
import { UpstreamError } from '../../../src/generation/upstreamError.js';
import { sentence } from '../../../src/i18n/translate.js';

class MapCounter {
	readonly counts = new Map<string, number>();
	async increment(key: string): Promise<number> {
		const next = (this.counts.get(key) ?? 0) + 1;
		this.counts.set(key, next);
		return next;
	}
}

function admission(overrides: Partial<ConstructorParameters<typeof Admission>[0]> = {}) {
	let now = 1_000_000;
	const made = new Admission({
		concurrency: 2,
		queueMax: 1,
		memberPerMinute: 2,
		counter: new MapCounter(),
		breaker: { now: () => now },
		...overrides,
	});
	return { made, advance: (ms: number) => (now += ms) };
}

const down = () => new UpstreamError({ code: 'upstream_unavailable', message: 'm', answer: sentence('members.upstream.unavailable'), status: 503 });
const signal = new AbortController().signal;

describe('Admission', () => {
	it('holds one ask per member until the upstream call ends, whatever its outcome', async () => {
		const { made } = admission();
		const first = made.admit('alice');
		expect(() => made.admit('alice')).toThrow(AskInProgressError);
		first.enterLine(signal);
		await expect(first.callUpstream(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
		expect(made.line.holding).toBe(0);
		made.admit('alice').end();
	});

	it("counts the member's pace only for asks that got past every refusal", () => {
		const { made } = admission();
		for (let i = 0; i < 5; i++) made.admit('alice').end();
		for (let i = 0; i < 2; i++) {
			const ask = made.admit('alice');
			ask.started();
			ask.end();
		}
		expect(() => made.admit('alice')).toThrow(MemberRateError);
	});

	it('turns an ask away when the line is full, and the member may ask again', () => {
		const { made } = admission({ concurrency: 1, queueMax: 0 });
		made.admit('alice').enterLine(signal);
		const bob = made.admit('bob');
		expect(() => bob.enterLine(signal)).toThrow(LineFullError);
		bob.end();
		expect(() => made.admit('bob').end()).not.toThrow();
	});

	it("counts a member's daily asks in the store, refusing past the limit, never counting the exempt", async () => {
		const counter = new MapCounter();
		const { made } = admission({ counter, memberPerMinute: 0 });
		const ask = { guildId: 'g', limit: 1, exempt: false };
		const countAs = async (member: string, what = ask) => {
			const admitted = made.admit(member);
			try {
				await admitted.countDaily(what);
			} finally {
				admitted.end();
			}
		};
		await countAs('alice');
		await expect(countAs('alice')).rejects.toBeInstanceOf(DailyLimitError);
		await countAs('bob');
		await countAs('alice', { ...ask, exempt: true });
		expect([...counter.counts.values()]).toEqual([2, 1]);
	});

	it('opens the breaker after 5 service failures, refusing before any read, and a refusal from the service breaks the run', async () => {
		const { made, advance } = admission({ memberPerMinute: 0 });
		const call = async (result: () => Promise<unknown>) => {
			const ask = made.admit('alice');
			ask.enterLine(signal);
			await ask.callUpstream(result).catch(() => undefined);
		};
		for (let i = 0; i < 4; i++) await call(() => Promise.reject(down()));
		await call(() =>
			Promise.reject(
				new UpstreamError({ code: 'upstream_unavailable', message: 'm', answer: sentence('members.upstream.unavailable'), status: 429 }),
			),
		);
		for (let i = 0; i < 4; i++) await call(() => Promise.reject(down()));
		expect(made.breaker.state).toBe('closed');
		await call(() => Promise.reject(down()));
		expect(made.breaker.state).toBe('open');
		expect(() => made.admit('alice')).toThrow(ServiceDownError);
		advance(30_000);
		// A trial that ends without asking (a shutdown's abort) lets the next ask be the trial.
		await call(() => Promise.reject(new Error('aborted')));
		await call(() => Promise.resolve('answer'));
		expect(made.breaker.state).toBe('closed');
	});

	it('refuses at the call an ask let in before the breaker opened, and frees the member and the slot', async () => {
		const { made } = admission({ memberPerMinute: 0, concurrency: 5, queueMax: 5 });
		const early = made.admit('early');
		early.enterLine(signal);
		for (let i = 0; i < 5; i++) {
			const ask = made.admit(`m${i}`);
			ask.enterLine(signal);
			await ask.callUpstream(() => Promise.reject(down())).catch(() => undefined);
		}
		let called = false;
		await expect(early.callUpstream(async () => (called = true))).rejects.toBeInstanceOf(ServiceDownError);
		expect(called).toBe(false);
		expect(made.line.holding).toBe(0);
	});
});
