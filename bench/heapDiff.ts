/**
 * `node --import tsx bench/heapDiff.ts A.heapsnapshot B.heapsnapshot [top]`: what grew from heap snapshot A to B
 * (the soak's `--snapshots`), by constructor or kind: the objects and bytes B holds beyond A, largest growth first.
 */
import { readFileSync } from 'node:fs';
import { formatFigure } from './stats.js';

interface HeapSnapshot {
	snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
	nodes: number[];
	strings: string[];
}

interface Tally {
	count: number;
	bytes: number;
}

/** Objects and their own sizes, by `type name` (for an object, its constructor). */
function tallies(file: string): Map<string, Tally> {
	const heap = JSON.parse(readFileSync(file, 'utf8')) as HeapSnapshot;
	const fields = heap.snapshot.meta.node_fields;
	const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((field) => fields.indexOf(field)) as [number, number, number];
	const types = heap.snapshot.meta.node_types[0];
	const byKey = new Map<string, Tally>();
	for (let at = 0; at < heap.nodes.length; at += fields.length) {
		const type = types[heap.nodes[at + typeAt] as number] ?? '?';
		// Strings and code are told apart by kind only: their names are their contents.
		const name = type === 'object' || type === 'closure' || type === 'native' ? (heap.strings[heap.nodes[at + nameAt] as number] ?? '?') : '';
		const key = `${type} ${name}`.trim().slice(0, 80);
		const tally = byKey.get(key) ?? { count: 0, bytes: 0 };
		tally.count++;
		tally.bytes += heap.nodes[at + sizeAt] as number;
		byKey.set(key, tally);
	}
	return byKey;
}

const [before, after, top = '25'] = process.argv.slice(2);
if (!before || !after) throw new Error('usage: node --import tsx bench/heapDiff.ts A.heapsnapshot B.heapsnapshot [top]');
const [a, b] = [tallies(before), tallies(after)];
const rows = [...b].map(([key, tally]) => ({ key, count: tally.count - (a.get(key)?.count ?? 0), bytes: tally.bytes - (a.get(key)?.bytes ?? 0) }));
const total = rows.reduce((sum, row) => sum + row.bytes, 0);
console.log(`${formatFigure(total / 1024, ' KB')} more in ${after} than in ${before}; the largest changes:\n`);
console.log('| kind | objects | bytes |\n|---|---|---|');
for (const row of rows.sort((x, y) => Math.abs(y.bytes) - Math.abs(x.bytes)).slice(0, Number(top))) {
	console.log(`| ${row.key} | ${row.count > 0 ? '+' : ''}${row.count} | ${row.bytes > 0 ? '+' : ''}${formatFigure(row.bytes / 1024, ' KB')} |`);
}
