/** The value at or below which `p` percent of `values` lie (nearest rank); NaN for none. */
export function percentile(values: readonly number[], p: number): number {
	if (values.length === 0) return Number.NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
	return sorted[rank] as number;
}

export function median(values: readonly number[]): number {
	return percentile(values, 50);
}

export const MB = 1024 * 1024;

/** A figure for the table: at most 3 significant digits, so noise does not pass for precision. */
export function formatFigure(value: number, unit = ''): string {
	if (!Number.isFinite(value)) return '—';
	const abs = Math.abs(value);
	const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
	return `${value.toFixed(digits)}${unit}`;
}
