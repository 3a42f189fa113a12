/**
 * Every sequence a reader (a model, a terminal, a browser) may take as a line break: CRLF, LF, a lone CR, vertical
 * tab, form feed, NEL (U+0085), and the Unicode line and paragraph separators. Splitting only on `\r?\n` would leave
 * text after any of the others unquoted while it still reads as a new line.
 */
const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;

/**
 * The one prompt `Ask Veil` sends: the message's text quoted (each line opened with `> `, as Discord's markdown
 * quotes), a blank line, then the member's question, so the model reads which is which. Every kind of line break is
 * made a plain `\n` first, so no later line of the message escapes the quote.
 */
export function askAboutMessage(messageText: string, question: string): string {
	const quoted = messageText
		.split(LINE_BREAK)
		.map((line) => `> ${line}`)
		.join('\n');
	return `${quoted}\n\n${question}`;
}

/**
 * Ask Veil's prompt as a saved conversation keeps it: the member's question, and whose message it was about in
 * place of the message itself, so another member's words are not kept past the ask (they may delete them).
 */
export function keptAboutMessage(authorName: string, question: string): string {
	return `(Asked about a message by ${authorName}; the message is not kept.)\n\n${question}`;
}
