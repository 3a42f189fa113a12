/**
 * A minimal valid PDF with one line of Helvetica text on each page, written byte by byte (objects, cross-reference
 * table and trailer), so a test holds a real PDF without a library to make one.
 */
export function makePdf(pages: readonly string[]): Buffer {
	const escape = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);
	const objects: string[] = [];
	const pageIds = pages.map((_, index) => 4 + index * 2);
	objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
	objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
	objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
	pages.forEach((text, index) => {
		const stream = `BT /F1 12 Tf 72 720 Td (${escape(text)}) Tj ET`;
		objects[4 + index * 2] =
			'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ' + `/Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + index * 2} 0 R >>`;
		objects[5 + index * 2] = `<< /Length ${Buffer.byteLength(stream)} >>\nstream\n${stream}\nendstream`;
	});
	let body = '%PDF-1.4\n';
	const offsets: number[] = [];
	for (let id = 1; id < objects.length; id += 1) {
		offsets[id] = Buffer.byteLength(body);
		body += `${id} 0 obj\n${objects[id]}\nendobj\n`;
	}
	const xref = Buffer.byteLength(body);
	body += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
	for (let id = 1; id < objects.length; id += 1) body += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
	body += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
	return Buffer.from(body, 'latin1');
}
