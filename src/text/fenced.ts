/** Text in a code block whose fence no run of backticks in it can close. */
export function fenced(text: string): string {
	let longest = 0;
	for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
	const fence = '`'.repeat(Math.max(3, longest + 1));
	return `${fence}\n${text}\n${fence}`;
}
