import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../src/logging/logger.js';
import { lazyChild } from '../../../src/logging/lazyChild.js';

/** A root logger at `level` whose lines the test reads, parsed. */
function capturing(level: string) {
	const lines: Array<Record<string, unknown>> = [];
	const root = createLogger(level, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
	return { root, lines };
}

describe('lazyChild', () => {
	it('makes no child, and reads no bindings, while every line is below the level', () => {
		const { root, lines } = capturing('info');
		const makeChild = vi.spyOn(root, 'child');
		const bindings = vi.fn(() => ({ interactionId: '1' }));
		const log = lazyChild(root, bindings);
		log.debug('dropped');
		log.trace({ detail: 1 }, 'dropped too');
		expect(log.isLevelEnabled('debug')).toBe(false);
		expect(log.isLevelEnabled('warn')).toBe(true);
		expect(lines).toEqual([]);
		expect(bindings).not.toHaveBeenCalled();
		expect(makeChild).not.toHaveBeenCalled();
	});

	it('writes lines at the level with the bindings, made once, and redacted like every other line', () => {
		const { root, lines } = capturing('info');
		const bindings = vi.fn(() => ({ interactionId: '42', token: 'SECRET-TOKEN-CANARY' }));
		const log = lazyChild(root, bindings);
		log.debug('dropped');
		log.info({ step: 1 }, 'first');
		log.warn({ password: 'SECRET-PASSWORD-CANARY' }, 'second');
		expect(bindings).toHaveBeenCalledTimes(1);
		expect(lines.map((line) => [line.msg, line.interactionId, line.app])).toEqual([
			['first', '42', 'veil'],
			['second', '42', 'veil'],
		]);
		expect(lines[0]?.step).toBe(1);
		expect(JSON.stringify(lines)).not.toMatch(/SECRET-/);
		// Once made, lines below the level are still dropped.
		log.debug('still dropped');
		expect(lines).toHaveLength(2);
	});

	it('writes debug lines when the root writes them', () => {
		const { root, lines } = capturing('debug');
		lazyChild(root, () => ({ route: '/ask' })).debug({ ms: 3 }, 'interaction handled');
		expect(lines).toMatchObject([{ msg: 'interaction handled', route: '/ask', ms: 3 }]);
	});
});
