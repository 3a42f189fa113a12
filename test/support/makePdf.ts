import { constants, deflateRawSync, deflateSync } from 'node:zlib';

/**
 * A minimal valid PDF with one line of Helvetica text on each page, written byte by byte (objects, cross-reference
 * table and trailer), so a test holds a real PDF without a library to make one.
 */
export function makePdf(pages: readonly string[]): Buffer {
	const escape = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);
	return writePdf(pages.map((text) => ({ dictionary: '', stream: Buffer.from(`BT /F1 12 Tf 72 720 Td (${escape(text)}) Tj ET`, 'latin1') })));
}

/**
 * A one-page PDF whose content stream (FlateDecode, a valid zlib stream) inflates to `inflatedBytes` spaces: about
 * 1,000 times smaller than that, the shape of a decompression bomb. Made in milliseconds whatever the size, from one
 * compressed MiB repeated: each copy ends in a full flush, so none refers back to another. With `layers: 2` the
 * stream is deflated once more (`/Filter [/FlateDecode /FlateDecode]`): a few kB for the same gigabytes.
 */
export function makeBombPdf(inflatedBytes: number, { layers = 1 }: { layers?: 1 | 2 } = {}): Buffer {
	const MiB = 1024 * 1024;
	if (inflatedBytes % MiB !== 0) throw new Error('makeBombPdf takes a whole number of MiB');
	const piece = deflateRawSync(Buffer.alloc(MiB, 0x20), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
	const copies = inflatedBytes / MiB;
	const zlib = Buffer.concat([
		Buffer.from([0x78, 0xda]),
		...Array.from({ length: copies }, () => piece),
		deflateRawSync(Buffer.alloc(0)),
		adler32OfSpaces(inflatedBytes),
	]);
	if (layers === 1) return writePdf([{ dictionary: ' /Filter /FlateDecode', stream: zlib }]);
	return writePdf([{ dictionary: ' /Filter [/FlateDecode /FlateDecode]', stream: deflateSync(zlib, { level: 9 }) }]);
}

/** Adler-32 of `count` spaces, computed rather than run over gigabytes. */
function adler32OfSpaces(count: number): Buffer {
	const mod = 65521n;
	const n = BigInt(count);
	const a = (1n + n * 32n) % mod;
	const b = (n + (32n * n * (n + 1n)) / 2n) % mod;
	const out = Buffer.alloc(4);
	out.writeUInt32BE(Number((b << 16n) | a));
	return out;
}

/** Catalog, pages, one Helvetica font, and a page per content stream, with a correct cross-reference table. */
function writePdf(contents: readonly { dictionary: string; stream: Buffer }[]): Buffer {
	const objects: Buffer[] = [];
	const text = (value: string) => Buffer.from(value, 'latin1');
	const pageIds = contents.map((_, index) => 4 + index * 2);
	objects[1] = text('<< /Type /Catalog /Pages 2 0 R >>');
	objects[2] = text(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${contents.length} >>`);
	objects[3] = text('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
	contents.forEach(({ dictionary, stream }, index) => {
		objects[4 + index * 2] = text(
			'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ' + `/Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + index * 2} 0 R >>`,
		);
		objects[5 + index * 2] = Buffer.concat([text(`<< /Length ${stream.length}${dictionary} >>\nstream\n`), stream, text('\nendstream')]);
	});
	const parts: Buffer[] = [text('%PDF-1.4\n')];
	let length = parts[0]!.length;
	const offsets: number[] = [];
	for (let id = 1; id < objects.length; id += 1) {
		offsets[id] = length;
		const object = Buffer.concat([text(`${id} 0 obj\n`), objects[id]!, text('\nendobj\n')]);
		parts.push(object);
		length += object.length;
	}
	let tail = `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
	for (let id = 1; id < objects.length; id += 1) tail += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
	tail += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
	parts.push(text(tail));
	return Buffer.concat(parts);
}
