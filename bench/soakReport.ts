import { statSync } from 'node:fs';
import { formatFigure, MB, percentile } from './stats.js';

/** What the soak saw at one checkpoint: memory after two full collections, the store's size, the counts so far. */
export interface Checkpoint {
	/** Asks so far: the steady stream's and the conversations' (each /ask and each follow-up). */
	asks: number;
	rss: number;
	heap: number;
	/** The SQLite file and its write-ahead log, in bytes. */
	store: number;
	/** The steady stream's asks so far, by how they ended. */
	answered: number;
	held: number;
	wrong: number;
	followedUp: number;
	failedFollowUps: number;
	/** The completions of the stretch that ended here. */
	completionMs: number[];
}

/** The asks the targets are per. */
const PER_ASKS = 10_000;
const TARGETS = { heap: 1, rss: 2 } as const;

/** The store as it takes room on disk: the database file and its write-ahead log. */
export function storeBytes(file: string): number {
	const size = (path: string) => {
		try {
			return statSync(path).size;
		} catch {
			return 0;
		}
	};
	return size(file) + size(`${file}-wal`);
}

/** The checkpoints as a Markdown table. */
export function formatSoakTable(checkpoints: readonly Checkpoint[]): string {
	const lines = [
		'| asks | RSS | V8 heap after GC | store | answered / held / wrong | followed up | completion p50 / p99 |',
		'|---|---|---|---|---|---|---|',
	];
	for (const point of checkpoints) {
		const completion = point.completionMs.length ? `${[50, 99].map((p) => formatFigure(percentile(point.completionMs, p))).join(' / ')} ms` : '—';
		const failed = point.failedFollowUps ? ` (${point.failedFollowUps} failed)` : '';
		lines.push(
			`| ${point.asks.toLocaleString('en')} | ${formatFigure(point.rss / MB, ' MB')} | ${formatFigure(point.heap / MB, ' MB')} | ${formatFigure(point.store / MB, ' MB')} | ` +
				`${point.answered} / ${point.held} / ${point.wrong} | ${point.followedUp}${failed} | ${completion} |`,
		);
	}
	return lines.join('\n');
}

/**
 * The growth per 10,000 asks from the first checkpoint after the start to the last, with the targets: the
 * start's row is left out, since the first asks fill what is filled once (compiled code, pools, caches).
 */
export function soakGrowth(checkpoints: readonly Checkpoint[]): string[] {
	const first = checkpoints[1];
	const last = checkpoints.at(-1);
	if (!first || !last || last === first) return ['growth: needs at least two checkpoints after the start (--asks at least twice --every)'];
	const per = (key: 'rss' | 'heap' | 'store') => ((last[key] - first[key]) / (last.asks - first.asks)) * PER_ASKS;
	const span = `${first.asks.toLocaleString('en')} → ${last.asks.toLocaleString('en')} asks`;
	const verdict = (value: number, target: number) => `${value <= target ? 'met' : 'MISSED'}: ≤ ${target} MB`;
	return [
		`Growth per ${PER_ASKS.toLocaleString('en')} asks (${span}):`,
		`- V8 heap after GC: ${formatFigure(per('heap') / MB, ' MB')} (${verdict(per('heap') / MB, TARGETS.heap)})`,
		`- RSS: ${formatFigure(per('rss') / MB, ' MB')} (${verdict(per('rss') / MB, TARGETS.rss)})`,
		`- store: ${formatFigure(per('store') / MB, ' MB')} (records kept by design: each answer's conversation for CONVERSATION_TTL_HOURS, each hidden answer for FLAG_RETENTION_DAYS)`,
	];
}
