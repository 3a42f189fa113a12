import { spawn } from 'node:child_process';
import { pdfProcessArguments, type PdfProcessLimits } from './pdfTextProcess.js';

/** Limits on one PDF: pages read, the time its text may take to come out, and the characters worth reading. */
export interface PdfLimits {
	readonly maxPages: number;
	readonly timeoutMs: number;
	/** Past this many characters the rest is not read: the text comes back cut one character past it. */
	readonly maxCharacters: number;
}

/** Why a PDF gave no text: the member is told which. */
export type PdfFailure = 'unreadable' | 'too-many-pages' | 'too-slow' | 'too-large';

export type PdfText = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly failure: PdfFailure };

const MiB = 1024 * 1024;

/**
 * What one PDF may cost, in a process of its own. Its private resident memory is watched from inside it (see
 * pdfTextProcess): about 47 MiB is node, that watchdog and pdf.js, the rest the document's. Killed at the deadline
 * too, wherever pdf.js is; at most two at once, so a burst of PDFs costs two cores and twice the budget at most.
 */
export const PDF_PROCESS = {
	privateMemoryBytes: 76 * MiB,
	heapMiB: 48,
	watchEveryMs: 5,
	concurrent: 2,
} as const;

let running = 0;
const waiting: (() => void)[] = [];

/**
 * The text of a PDF, page after page, a blank line between pages, read in a process of its own: past `timeoutMs`
 * (waiting for a turn included) it is "too-slow", past its memory budget "too-large", and the bot's event loop and
 * memory never carry pdf.js's work.
 */
export async function pdfText(bytes: Uint8Array, limits: PdfLimits): Promise<PdfText> {
	const deadline = Date.now() + limits.timeoutMs;
	if (!(await turn(deadline))) return { ok: false, failure: 'too-slow' };
	try {
		return await readInProcess(bytes, limits, deadline);
	} finally {
		running -= 1;
		waiting.shift()?.();
	}
}

/** Waits for one of the concurrent places, until the deadline at most; true once it holds one. */
async function turn(deadline: number): Promise<boolean> {
	if (running < PDF_PROCESS.concurrent) {
		running += 1;
		return true;
	}
	return new Promise((resolve) => {
		const take = () => {
			clearTimeout(timer);
			running += 1;
			resolve(true);
		};
		const timer = setTimeout(
			() => {
				waiting.splice(waiting.indexOf(take), 1);
				resolve(false);
			},
			Math.max(0, deadline - Date.now()),
		);
		timer.unref();
		waiting.push(take);
	});
}

function readInProcess(bytes: Uint8Array, limits: PdfLimits, deadline: number): Promise<PdfText> {
	const { maxPages, maxCharacters } = limits;
	const { privateMemoryBytes, watchEveryMs } = PDF_PROCESS;
	const processLimits: PdfProcessLimits = { maxPages, maxCharacters, privateMemoryBytes, watchEveryMs };
	const child = spawn(
		process.execPath,
		pdfProcessArguments(processLimits, PDF_PROCESS.heapMiB),
		// No environment: the process that parses a stranger's file holds none of the bot's secrets.
		{ env: {}, stdio: ['pipe', 'pipe', 'ignore'] },
	);
	return new Promise<PdfText>((resolve, reject) => {
		const output: Buffer[] = [];
		let outputBytes = 0;
		// A JSON-escaped character is 12 bytes at most (a surrogate pair as two \u escapes).
		const maxOutputBytes = 12 * (maxCharacters + 1) + 1024;
		let ended: PdfText | undefined;
		const end = (outcome: PdfText) => {
			ended ??= outcome;
			clearTimeout(timer);
			if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
			resolve(ended);
		};
		const timer = setTimeout(() => end({ ok: false, failure: 'too-slow' }), Math.max(0, deadline - Date.now()));
		child.on('error', (error) => {
			clearTimeout(timer);
			reject(new Error('the PDF reading process did not start', { cause: error }));
		});
		child.stdin.on('error', () => undefined);
		child.stdin.end(bytes);
		child.stdout.on('data', (chunk: Buffer) => {
			outputBytes += chunk.length;
			if (outputBytes > maxOutputBytes) end({ ok: false, failure: 'unreadable' });
			else output.push(chunk);
		});
		child.on('close', (code, signal) => {
			if (ended !== undefined) return;
			// Its own watchdog (or the kernel's) kills it past its memory, V8 aborts it past its heap: the budget both.
			if (signal === 'SIGKILL' || signal === 'SIGABRT') return end({ ok: false, failure: 'too-large' });
			end(code === 0 ? parseOutcome(Buffer.concat(output).toString('utf8')) : { ok: false, failure: 'unreadable' });
		});
	});
}

function parseOutcome(json: string): PdfText {
	try {
		const outcome = JSON.parse(json) as PdfText;
		if (outcome.ok && typeof outcome.text === 'string') return { ok: true, text: outcome.text };
		if (!outcome.ok && ['unreadable', 'too-many-pages'].includes(outcome.failure)) return { ok: false, failure: outcome.failure };
	} catch {
		// Fall through: anything else is a file Veil could not read.
	}
	return { ok: false, failure: 'unreadable' };
}
