/**
 * Past this many table entries (4 MB), the deeper states of an automaton keep only their own transitions: a server
 * with the largest rules Discord allows stays within a few megabytes, and the text still mostly walks the table.
 */
const DENSE_ENTRIES = 1 << 20;

/** A keyword (already lower-cased, wildcards taken off) and what to report when it is found. */
export interface AutomatonKeyword<V> {
	readonly body: string;
	readonly value: V;
}

interface AutomatonTables<V> {
	/** Each character's class (0: in no keyword): below 128 by its code, others by the map. */
	readonly asciiClass: Int32Array;
	readonly otherClass: ReadonlyMap<number, number>;
	readonly classCount: number;
	/** States below this have a full row in `table`: the next state for each class. */
	readonly denseStates: number;
	readonly table: Int32Array;
	readonly fail: Int32Array;
	/** The other states' own transitions: those of state `denseStates + n` from `edgeStart[n]` to `edgeStart[n + 1]`. */
	readonly edgeStart: Int32Array;
	readonly edgeClass: Int32Array;
	readonly edgeTarget: Int32Array;
	/** Per state: itself if a keyword ends there, else the nearest state along its failure links where one does (-1: none). */
	readonly firstOut: Int32Array;
	readonly values: ReadonlyArray<readonly V[] | undefined>;
}

/**
 * An Aho–Corasick automaton over UTF-16 code units: a text is read once, one state a character, and every keyword
 * ending at a character is reported there. The characters no keyword holds share one class, which sends the scan
 * back to the start. States are numbered breadth first: the shallow ones, where a text spends most of its time, get
 * a full row of transitions in one table; deeper ones past the table's budget list their own and fall back along
 * their failure links.
 */
export class KeywordAutomaton<V> {
	readonly #tables: AutomatonTables<V>;

	constructor(tables: AutomatonTables<V>) {
		this.#tables = tables;
	}

	/** Calls `found` with each keyword's value at every place it ends in `text` (the index past its last unit). */
	scan(text: string, found: (value: V, end: number) => void): void {
		const { asciiClass, otherClass, classCount, denseStates, table, fail, edgeStart, edgeClass, edgeTarget, firstOut, values } = this.#tables;
		let state = 0;
		for (let i = 0; i < text.length; i += 1) {
			const code = text.charCodeAt(i);
			const k = code < 128 ? (asciiClass[code] as number) : (otherClass.get(code) ?? 0);
			if (k === 0) {
				state = 0;
				continue;
			}
			for (;;) {
				if (state < denseStates) {
					state = table[state * classCount + k] as number;
					break;
				}
				let next = -1;
				for (let e = edgeStart[state - denseStates] as number, last = edgeStart[state - denseStates + 1] as number; e < last; e += 1) {
					if (edgeClass[e] === k) {
						next = edgeTarget[e] as number;
						break;
					}
				}
				if (next >= 0) {
					state = next;
					break;
				}
				state = fail[state] as number;
			}
			for (let out = firstOut[state] as number; out >= 0; out = firstOut[fail[out] as number] as number) {
				for (const value of values[out] ?? []) found(value, i + 1);
			}
		}
	}
}

/** Compiles the keywords; `denseEntries` bounds the full-row table (a test makes it small to exercise the rest). */
export function compileAutomaton<V>(keywords: ReadonlyArray<AutomatonKeyword<V>>, denseEntries = DENSE_ENTRIES): KeywordAutomaton<V> {
	const classes = new Map<number, number>();
	const children = [new Map<number, number>()];
	const valuesAt: Array<V[] | undefined> = [undefined];
	for (const { body, value } of keywords) {
		let node = 0;
		for (let i = 0; i < body.length; i += 1) {
			const code = body.charCodeAt(i);
			let k = classes.get(code);
			if (k === undefined) classes.set(code, (k = classes.size + 1));
			const trie = children[node] as Map<number, number>;
			let child = trie.get(k);
			if (child === undefined) {
				trie.set(k, (child = children.length));
				children.push(new Map<number, number>());
				valuesAt.push(undefined);
			}
			node = child;
		}
		(valuesAt[node] ??= []).push(value);
	}

	// Breadth-first numbering: a state's failure link and its parent always come before it.
	const order = [0];
	const id = new Int32Array(children.length);
	for (let at = 0; at < order.length; at += 1) {
		for (const child of (children[order[at] as number] as Map<number, number>).values()) {
			id[child] = order.length;
			order.push(child);
		}
	}
	const count = order.length;
	const childrenOf = (state: number) => children[order[state] as number] as Map<number, number>;
	const values: Array<V[] | undefined> = order.map((node) => valuesAt[node]);
	const classCount = classes.size + 1;
	const denseStates = Math.min(count, Math.max(1, Math.floor(denseEntries / classCount)));
	const table = new Int32Array(denseStates * classCount);
	const fail = new Int32Array(count);
	const firstOut = new Int32Array(count).fill(-1);
	/** Where `from` goes on class `k`; every state before `from` is linked by then. */
	const next = (from: number, k: number): number => {
		for (let state = from; ; state = fail[state] as number) {
			if (state < denseStates) return table[state * classCount + k] as number;
			const child = childrenOf(state).get(k);
			if (child !== undefined) return id[child] as number;
		}
	};
	for (let state = 0; state < count; state += 1) {
		const link = fail[state] as number;
		const dense = state < denseStates;
		const row = state * classCount;
		// A row starts as its failure link's: where the state has no transition of its own, the link's applies.
		if (dense && state !== 0) table.copyWithin(row, link * classCount, link * classCount + classCount);
		childrenOf(state).forEach((child, k) => {
			if (dense) table[row + k] = id[child] as number;
			fail[id[child] as number] = state === 0 ? 0 : next(link, k);
		});
		firstOut[state] = values[state] ? state : state === 0 ? -1 : (firstOut[link] as number);
	}

	const edgeStart = new Int32Array(count - denseStates + 1);
	const edgeClass: number[] = [];
	const edgeTarget: number[] = [];
	for (let state = denseStates; state < count; state += 1) {
		edgeStart[state - denseStates] = edgeClass.length;
		for (const [k, child] of childrenOf(state)) {
			edgeClass.push(k);
			edgeTarget.push(id[child] as number);
		}
	}
	edgeStart[count - denseStates] = edgeClass.length;

	const asciiClass = new Int32Array(128);
	const otherClass = new Map<number, number>();
	for (const [code, k] of classes) {
		if (code < 128) asciiClass[code] = k;
		else otherClass.set(code, k);
	}
	return new KeywordAutomaton({
		asciiClass,
		otherClass,
		classCount,
		denseStates,
		table,
		fail,
		edgeStart,
		edgeClass: Int32Array.from(edgeClass),
		edgeTarget: Int32Array.from(edgeTarget),
		firstOut,
		values,
	});
}
