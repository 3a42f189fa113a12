import { setImmediate as yieldToEventLoop, setTimeout as delay } from 'node:timers/promises';

/** Limits on one PDF: pages read, and the time its text may take to come out. */
export interface PdfLimits {
	readonly maxPages: number;
	readonly timeoutMs: number;
}

/** Why a PDF gave no text: the member is told which. */
export type PdfFailure = 'unreadable' | 'too-many-pages' | 'too-slow';

export type PdfText = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly failure: PdfFailure };

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | undefined;

/** pdf.js is loaded at the first PDF: a process that never sees one never pays for its 2 MB of code. */
const loadPdfJs = () => (pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs'));

/**
 * The text of a PDF, page after page, a blank line between pages; extracted by pdf.js without fonts, scripts or
 * evaluation, and abandoned (the document destroyed) past `timeoutMs`.
 */
export async function pdfText(bytes: Uint8Array, limits: PdfLimits): Promise<PdfText> {
	const { getDocument } = await loadPdfJs();
	const task = getDocument({
		data: new Uint8Array(bytes),
		isEvalSupported: false,
		disableFontFace: true,
		useSystemFonts: false,
		stopAtErrors: true,
		verbosity: 0,
	});
	const timer = new AbortController();
	const deadline = Date.now() + limits.timeoutMs;
	const read = (async (): Promise<PdfText> => {
		const document = await task.promise;
		if (document.numPages > limits.maxPages) return { ok: false, failure: 'too-many-pages' };
		const pages: string[] = [];
		for (let number = 1; number <= document.numPages; number += 1) {
			// pdf.js without a worker runs on promises alone, which starve timers and sockets: each page lets them run.
			await yieldToEventLoop();
			if (Date.now() > deadline) return { ok: false, failure: 'too-slow' };
			const page = await document.getPage(number);
			const content = await page.getTextContent();
			pages.push(
				content.items
					.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
					.join('')
					.trim(),
			);
			page.cleanup();
		}
		return { ok: true, text: pages.join('\n\n').trim() };
	})();
	const timeout = delay(limits.timeoutMs, { ok: false, failure: 'too-slow' } as const, { signal: timer.signal }).catch(() => undefined);
	try {
		const outcome = await Promise.race([read.catch((): PdfText => ({ ok: false, failure: 'unreadable' })), timeout]);
		return outcome ?? { ok: false, failure: 'too-slow' };
	} finally {
		timer.abort();
		read.catch(() => undefined);
		await task.destroy().catch(() => undefined);
	}
}
