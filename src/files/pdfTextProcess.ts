import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** What the process that reads one PDF is told, as JSON in its one argument. */
export interface PdfProcessLimits {
	readonly maxPages: number;
	readonly maxCharacters: number;
	readonly privateMemoryBytes: number;
	readonly watchEveryMs: number;
}

/**
 * A thread that kills its process past the memory budget, or once the bot that started it is gone. It runs beside
 * pdf.js, whose inflating holds the main thread for as long as a stream lasts, and counts what a heap limit does not:
 * pdf.js inflates a stream whole, into ArrayBuffers. Linux counts private pages alone (the node binary's and pdf.js's
 * are shared); elsewhere the growth of the whole since the start.
 */
const WATCHDOG = String.raw`
import { parentPort, workerData } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
const start = process.memoryUsage.rss();
const used = process.platform === 'linux'
	? () => Number.parseInt(/RssAnon:\s*(\d+)/.exec(readFileSync('/proc/self/status', 'latin1'))?.[1] ?? '0', 10) * 1024
	: () => process.memoryUsage.rss() - start;
setInterval(() => {
	if (used() > workerData.privateMemoryBytes || process.ppid !== workerData.parent) process.kill(process.pid, 'SIGKILL');
}, workerData.watchEveryMs);
parentPort.postMessage('watching');
`;

/**
 * The reading process: the PDF's bytes on stdin; on stdout `{"ok":true,"text":…}` (page after page, a blank line
 * between pages, cut one character past `maxCharacters`) or `{"ok":false,"failure":…}`. Plain JavaScript run with
 * `-e`, so the same code runs under the tests and in production, with no loader and no file of its own; it holds
 * nothing of the bot's (no environment, no token).
 */
const SCRIPT = String.raw`
import { Worker } from 'node:worker_threads';
const limits = JSON.parse(process.argv[1]);
const watchdog = new Worker(limits.watchdog, {
	eval: true,
	execArgv: ['--input-type=module'],
	workerData: { privateMemoryBytes: limits.privateMemoryBytes, watchEveryMs: limits.watchEveryMs, parent: limits.parent },
	resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1 },
});
// Without its watchdog the process has no memory bound: it ends, and the PDF is not read.
watchdog.on('error', () => process.exit(70));
watchdog.unref();
// Nothing is read before the watchdog watches.
await new Promise((resolve) => watchdog.once('message', resolve));

async function extract(bytes) {
	const { getDocument } = await import(limits.pdfjs);
	const document = await getDocument({
		data: bytes,
		isEvalSupported: false,
		disableFontFace: true,
		useSystemFonts: false,
		stopAtErrors: true,
		verbosity: 0,
	}).promise;
	if (document.numPages > limits.maxPages) return { ok: false, failure: 'too-many-pages' };
	let text = '';
	for (let number = 1; number <= document.numPages; number += 1) {
		const page = await document.getPage(number);
		const content = await page.getTextContent();
		const pageText = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('').trim();
		text = text === '' ? pageText : text + '\n\n' + pageText;
		page.cleanup();
		// Past the cap the caller refuses the file whatever follows: the rest is neither read nor sent back.
		if (text.length > limits.maxCharacters * 2) break;
	}
	return { ok: true, text: cut(text.trim(), limits.maxCharacters + 1) };
}

// The first count characters, as characterCount counts them (code points).
function cut(text, count) {
	let end = 0;
	let seen = 0;
	for (const character of text) {
		if (seen === count) return text.slice(0, end);
		end += character.length;
		seen += 1;
	}
	return text;
}

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const bytes = Buffer.concat(chunks);
// pdf.js copies a Buffer, not a plain view of the same memory.
const outcome = await extract(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length)).catch(() => ({ ok: false, failure: 'unreadable' }));
process.stdout.write(JSON.stringify(outcome), () => process.exit(0));
`;

const pdfjs = pathToFileURL(createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.mjs')).href;

/** node's arguments for the process that reads one PDF within `limits`. */
export function pdfProcessArguments(limits: PdfProcessLimits, heapMiB: number): string[] {
	return [
		`--max-old-space-size=${heapMiB}`,
		'--max-semi-space-size=1',
		// No V8 helper threads: the one-off process spends its memory on the document.
		'--single-threaded',
		'--input-type=module',
		'-e',
		SCRIPT,
		JSON.stringify({ ...limits, pdfjs, watchdog: WATCHDOG, parent: process.pid }),
	];
}
