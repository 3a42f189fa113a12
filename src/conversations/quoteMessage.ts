/**
 * The one prompt `Ask Veil` sends: the message's text quoted (each line opened with `> `, as Discord's markdown
 * quotes), a blank line, then the member's question, so the model reads which is which.
 */
export function askAboutMessage(messageText: string, question: string): string {
	const quoted = messageText
		.split(/\r?\n/)
		.map((line) => `> ${line}`)
		.join('\n');
	return `${quoted}\n\n${question}`;
}
