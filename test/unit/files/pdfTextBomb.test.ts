import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pdfText } from '../../../src/files/pdfText.js';
import { FILE_LIMITS } from '../../../src/files/readAttachments.js';
import { makeBombPdf, makePdf } from '../../support/makePdf.js';

const MB = 1_000_000;
const limits = { maxPages: FILE_LIMITS.maxPages, timeoutMs: FILE_LIMITS.pdfTimeoutMs, maxCharacters: FILE_LIMITS.fileMaxCharacters };

/** A field of /proc/<pid>/status in bytes (its values are in kB), or 0 once the process is gone. */
function statusBytes(pid: string, field: string): number {
	try {
		const line = readFileSync(`/proc/${pid}/status`, 'utf8')
			.split('\n')
			.find((l) => l.startsWith(`${field}:`));
		return line === undefined ? 0 : Number.parseInt(line.slice(field.length + 1), 10) * 1024;
	} catch {
		return 0;
	}
}

/** Children of this process's main thread, which is where node starts them. */
function childrenOfThisProcess(): string[] {
	return readFileSync(`/proc/self/task/${process.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
}

/**
 * Resident memory a PDF costs while it is read: this process's growth, and the memory private to any process it
 * starts (anonymous pages; the node binary's and pdf.js's file pages are shared page cache). Sampled every 5 ms
 * while the event loop turns (sparingly: the sampling's own garbage grows this process's young generation too), and
 * from the kernel's high-water mark of this process for when it does not turn.
 */
function meterResidentMemory() {
	const baseline = process.memoryUsage.rss();
	const highWaterBefore = statusBytes('self', 'VmHWM');
	let peakOwn = baseline;
	let peakChildren = 0;
	let peakChildrenTotal = 0;
	const sample = () => {
		peakOwn = Math.max(peakOwn, process.memoryUsage.rss());
		let anon = 0;
		let total = 0;
		for (const pid of childrenOfThisProcess()) {
			anon += statusBytes(pid, 'RssAnon');
			total += statusBytes(pid, 'VmHWM');
		}
		peakChildren = Math.max(peakChildren, anon);
		peakChildrenTotal = Math.max(peakChildrenTotal, total);
	};
	const timer = setInterval(sample, 5);
	return () => {
		clearInterval(timer);
		sample();
		const highWater = statusBytes('self', 'VmHWM');
		// The high-water mark says something about this read only if the read raised it.
		if (highWater > highWaterBefore) peakOwn = Math.max(peakOwn, highWater);
		return { baseline, grewOwn: peakOwn - baseline, children: peakChildren, childrenWithSharedPages: peakChildrenTotal };
	};
}

describe('pdfText with a decompression bomb', () => {
	it.each([
		['a 2 MB PDF', 1, 2.2 * MB],
		['a 6 kB PDF (deflated twice)', 2, 6_000],
	] as const)(
		'refuses %s that inflates to 2 GiB within its time limit plus 1 s, for less than 100 MB of resident memory',
		async (_, layers, size) => {
			const bomb = makeBombPdf(2048 * 1024 * 1024, { layers });
			expect(bomb.length).toBeLessThan(size);
			const stop = meterResidentMemory();
			const started = performance.now();
			const outcome = await pdfText(bomb, limits);
			const elapsed = performance.now() - started;
			const memory = stop();
			console.info(
				`bomb of ${bomb.length} bytes: ${outcome.ok ? 'read' : outcome.failure} after ${Math.round(elapsed)} ms; RSS ${(memory.baseline / MB).toFixed(1)} MB ` +
					`+${(memory.grewOwn / MB).toFixed(1)} MB here, children ${(memory.children / MB).toFixed(1)} MB private ` +
					`(${(memory.childrenWithSharedPages / MB).toFixed(1)} MB with shared pages)`,
			);
			// Killed past its memory, or at the deadline if pdf.js inflates slower than the budget fills: refused either way.
			expect(outcome.ok ? 'read' : outcome.failure).toMatch(/^(too-large|too-slow)$/);
			expect(elapsed).toBeLessThan(limits.timeoutMs + 1000);
			expect(memory.grewOwn + memory.children).toBeLessThan(100 * MB);
		},
	);

	it('still reads an ordinary PDF afterwards', async () => {
		expect(await pdfText(makePdf(['Still here.']), limits)).toEqual({ ok: true, text: 'Still here.' });
	});
});
