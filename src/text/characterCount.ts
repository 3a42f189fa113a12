/** Characters as a member counts them (an emoji is one), not UTF-16 units. */
export function characterCount(text: string): number {
	let count = 0;
	for (const _ of text) count += 1;
	return count;
}
