/**
 * A sealed record that does not open: wrong key, another record's, or altered bytes. Its message names what failed,
 * never the key or the text; what the member is told depends on what was sealed, so the owner of the record says it.
 */
export class SealError extends Error {
	override readonly name = 'SealError';
}
