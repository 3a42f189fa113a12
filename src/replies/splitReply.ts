/** Discord's cap on a message's content. */
export const MESSAGE_LIMIT = 2000;

// Below this a reopened fence, its close and a surrogate pair might not fit together.
const MIN_LIMIT = 16;

// A fence line as this module counts them: up to three spaces, then three or more backticks, then anything.
const FENCE_LINE = /^ {0,3}(`{3,})/;

interface Fence {
	/** The line that reopens the block at the top of the next message, language included. */
	readonly reopen: string;
	/** The line that closes it at the bottom of this one. */
	readonly close: string;
}

/**
 * Splits model text into Discord messages of at most `limit` UTF-16 code units each (JavaScript's `length`; never
 * more than Discord's count, which is per character).
 *
 * A split falls, in order of preference, at a paragraph break (a whitespace run holding two or more newlines) or a
 * line break that leaves the message at least half full, else at the last whitespace that fits (a space followed by
 * ``` only as a last resort: the next message would open with what reads as a fence); a word is cut only when no
 * whitespace fits, and never between the halves of a surrogate pair. Each split drops the whitespace run it
 * falls in and the message's trailing whitespace, except that inside a code block the indentation of the next line
 * is kept. Leading and trailing whitespace of the whole text is dropped too. Nothing else is lost or reordered.
 *
 * A code block open at a split is closed at the end of the message (`\n` and the opening backticks) and reopened at
 * the top of the next with the same fence line, language included; both count toward `limit`. Every message thus
 * holds an even number of fence lines: a block the text leaves open at its end is closed as well. A fence line longer
 * than a quarter of `limit` is reopened as three bare backticks, so that it cannot crowd out the text.
 *
 * @returns the messages in order; none when the text is empty or only whitespace
 * @throws RangeError when `limit` is not an integer of at least 16
 */
export function splitReply(text: string, limit: number = MESSAGE_LIMIT): string[] {
	if (!Number.isInteger(limit) || limit < MIN_LIMIT) {
		throw new RangeError(`splitReply: limit must be an integer of at least ${MIN_LIMIT}, got ${limit}`);
	}
	const end = text.trimEnd().length;
	let start = text.length - text.trimStart().length;
	let open: Fence | null = null;
	const messages: string[] = [];

	while (start < end) {
		const prefix = open === null ? '' : `${open.reopen}\n`;
		let room = limit - prefix.length;
		for (;;) {
			const split = chooseSplit(text, start, end, room);
			const content = text.slice(start, split.cut);
			const after = fenceAfter(content, open, limit);
			const suffix = after === null ? '' : `\n${after.close}`;
			if (prefix.length + content.length + suffix.length <= limit) {
				messages.push(prefix + content + suffix);
				start = after !== null && split.lineStart !== -1 ? split.lineStart : split.next;
				open = after;
				break;
			}
			// content.length > limit - prefix - suffix here, so room shrinks below the content just tried.
			room = Math.min(room - 1, limit - prefix.length - suffix.length);
		}
	}
	return messages;
}

interface Split {
	/** Where this message's text ends. */
	readonly cut: number;
	/** Where the next one's starts once the whole whitespace run is dropped. */
	readonly next: number;
	/** After the run's last newline, where the next line's indentation starts; -1 when the run has no newline. */
	readonly lineStart: number;
}

function chooseSplit(text: string, start: number, end: number, room: number): Split {
	if (end - start <= room) return { cut: end, next: end, lineStart: -1 };

	const last = start + room;
	let paragraph: Split | undefined;
	let line: Split | undefined;
	let word: Split | undefined;
	let fenceLikeWord: Split | undefined;
	let seenText = false;
	let i = start;
	while (i <= last) {
		if (!isSpace(text, i)) {
			seenText = true;
			i++;
			continue;
		}
		const cut = i;
		let newlines = 0;
		let lineStart = -1;
		for (; i < end && isSpace(text, i); i++) {
			if (text[i] === '\n') {
				newlines++;
				lineStart = i + 1;
			}
		}
		// Leading indentation is not a boundary: splitting there would leave a message of whitespace.
		if (!seenText) continue;
		const split = { cut, next: i, lineStart };
		if (newlines >= 2) paragraph = split;
		else if (newlines === 1) line = split;
		// Mid-line, a message that opens with ``` would read as a fence: use such a space only if nothing else fits.
		else if (text.startsWith('```', i)) fenceLikeWord = split;
		else word = split;
	}

	const half = start + room / 2;
	if (paragraph !== undefined && paragraph.cut >= half) return paragraph;
	if (line !== undefined && line.cut >= half) return line;
	const latest = [paragraph, line, word].reduce<Split | undefined>(
		(best, split) => (split !== undefined && (best === undefined || split.cut > best.cut) ? split : best),
		undefined,
	);
	if (latest !== undefined) return latest;
	if (fenceLikeWord !== undefined) return fenceLikeWord;
	const cut = hardCut(text, start, last);
	return { cut, next: cut, lineStart: -1 };
}

function hardCut(text: string, start: number, last: number): number {
	const cut = splitsPair(text, last) ? last - 1 : last;
	let back = cut;
	while (back > start && text.startsWith('```', back)) back--;
	return back > start && !splitsPair(text, back) ? back : cut;
}

function isSpace(text: string, index: number): boolean {
	return /\s/.test(text[index] ?? '');
}

/** Whether cutting before `index` would separate a high surrogate from its low half. */
function splitsPair(text: string, index: number): boolean {
	const before = text.charCodeAt(index - 1);
	const at = text.charCodeAt(index);
	return before >= 0xd800 && before <= 0xdbff && at >= 0xdc00 && at <= 0xdfff;
}

function fenceAfter(content: string, open: Fence | null, limit: number): Fence | null {
	let state = open;
	for (const line of content.split('\n')) {
		if (FENCE_LINE.test(line)) state = state === null ? fenceOf(line, limit) : null;
	}
	return state;
}

function fenceOf(line: string, limit: number): Fence {
	const reopen = line.trimEnd();
	const close = FENCE_LINE.exec(reopen)?.[1] ?? '```';
	return reopen.length <= Math.floor(limit / 4) ? { reopen, close } : { reopen: '```', close: '```' };
}
