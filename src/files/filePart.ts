/**
 * A file as a part of the asking turn: its name, then its text inside a code fence longer than any run of
 * backticks in it, so that nothing in the file can close the fence and pass for the member's own words.
 */
export function filePart(name: string, text: string): string {
	let longest = 0;
	for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
	const fence = '`'.repeat(Math.max(3, longest + 1));
	return `File: ${name.replace(/[\r\n]/g, ' ')}\n${fence}\n${text}\n${fence}`;
}
