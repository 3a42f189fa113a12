import { VeilError, type VeilErrorCode } from '../errors/veilError.js';
import { sentence, type Sentence } from '../i18n/translate.js';
import { characterCount } from '../text/characterCount.js';
import { attachmentKind, type AttachmentKind } from './attachmentKind.js';
import { decodeUtf8 } from './decodeUtf8.js';
import { fetchAttachment, type FetchFailure } from './fetchAttachment.js';
import { pdfText, type PdfFailure } from './pdfText.js';

/** An attachment as the interaction resolved it: only these URLs are ever fetched. */
export interface AttachmentRef {
	readonly name: string;
	readonly url: string;
	/** The size Discord declared, in bytes. */
	readonly size: number;
	readonly contentType?: string | null | undefined;
}

/** A file's text as it goes upstream (after the question) and into a flag or a conversation. */
export interface FileText {
	readonly name: string;
	readonly text: string;
}

const MiB = 1024 * 1024;

/**
 * What Veil reads of files. Past a character cap the ask is refused, naming the file, rather than cut: an answer
 * about the first part of a log, given as if about all of it, would mislead, and the member can send the part that
 * matters.
 */
export const FILE_LIMITS = {
	/** Discord's own limit of attachments on a message. */
	maxFiles: 10,
	pdfMaxBytes: 10 * MiB,
	/** A text file of 1 MiB is far past the character cap anyway; more is not downloaded. */
	textMaxBytes: 1 * MiB,
	maxPages: 100,
	pdfTimeoutMs: 10_000,
	fileMaxCharacters: 100_000,
	askMaxCharacters: 200_000,
} as const;

/** Where files come from and how long one may take: `DISCORD_CDN_URL` and `FILE_DOWNLOAD_TIMEOUT_MS`. */
export interface FileSource {
	readonly discordCdnBases: readonly string[];
	readonly fileDownloadTimeoutMs: number;
}

/** An attachment Veil will not send upstream; the member alone reads which and why, and nothing went upstream. */
export class FileError extends VeilError {
	override readonly name = 'FileError';

	constructor(code: VeilErrorCode, answer: Sentence, detail?: string) {
		// The logged text names the kind of failure, not the file: a file name is the member's.
		super({ code, message: detail === undefined ? `file refused: ${code}` : `file refused: ${code} (${detail})`, answer, private: true });
	}
}

/** A name as it may sit inside backticks in an answer. */
function shown(name: string): string {
	const clean = name.replace(/[`\r\n]/g, "'");
	return clean.length > 80 ? `${clean.slice(0, 77)}…` : clean;
}

const sizeCap = (kind: Exclude<AttachmentKind, 'unsupported'>) => (kind === 'pdf' ? FILE_LIMITS.pdfMaxBytes : FILE_LIMITS.textMaxBytes);

/**
 * Refuses, before anything is acknowledged or downloaded, a file Veil does not read (by its declared type and name)
 * or one whose declared size is past its kind's cap.
 */
export function checkAttachments(files: readonly AttachmentRef[]): void {
	if (files.length > FILE_LIMITS.maxFiles)
		throw new FileError('file_too_many', sentence('members.files.tooManyFiles', { count: FILE_LIMITS.maxFiles }));
	for (const file of files) {
		const kind = attachmentKind(file.name, file.contentType ?? undefined);
		if (kind === 'unsupported')
			throw new FileError(
				'file_unsupported',
				sentence('members.files.unsupported', { name: shown(file.name), kinds: sentence('members.files.kinds') }),
			);
		if (file.size > sizeCap(kind)) throw new FileError('file_too_large', tooLarge(shown(file.name), kind), 'declared size');
	}
}

const tooLarge = (name: string, kind: Exclude<AttachmentKind, 'unsupported'>) =>
	sentence('members.files.tooLarge', { name, maxMiB: sizeCap(kind) / MiB });

const FETCH_FAILURES: Record<Exclude<FetchFailure, 'too-large'>, { code: VeilErrorCode; answer: (name: string) => Sentence }> = {
	'not-cdn': { code: 'file_not_cdn', answer: (name) => sentence('members.files.unavailable', { name }) },
	unavailable: { code: 'file_unavailable', answer: (name) => sentence('members.files.unavailable', { name }) },
	timeout: { code: 'file_timeout', answer: (name) => sentence('members.files.slow', { name }) },
};

const PDF_FAILURES: Record<PdfFailure, { code: VeilErrorCode; answer: (name: string) => Sentence }> = {
	unreadable: { code: 'file_pdf_unreadable', answer: (name) => sentence('members.files.pdfUnreadable', { name }) },
	'too-many-pages': { code: 'file_pdf_pages', answer: (name) => sentence('members.files.pdfTooManyPages', { name, count: FILE_LIMITS.maxPages }) },
	'too-slow': { code: 'file_pdf_slow', answer: (name) => sentence('members.files.pdfTooSlow', { name }) },
	'too-large': { code: 'file_pdf_large', answer: (name) => sentence('members.files.pdfTooLarge', { name }) },
};

/**
 * The text of each file, in order: downloaded one at a time (so an ask holds at most one file's bytes) from the
 * CDN alone, decoded or extracted, each and all of them within the character caps; any failure refuses the whole
 * ask, naming the file, so that nothing goes upstream without a file the member sent.
 */
export async function readAttachments(files: readonly AttachmentRef[], source: FileSource): Promise<FileText[]> {
	checkAttachments(files);
	const texts: FileText[] = [];
	let total = 0;
	for (const file of files) {
		const kind = attachmentKind(file.name, file.contentType ?? undefined) as Exclude<AttachmentKind, 'unsupported'>;
		const name = shown(file.name);
		const fetched = await fetchAttachment(file.url, {
			cdnBases: source.discordCdnBases,
			maxBytes: sizeCap(kind),
			timeoutMs: source.fileDownloadTimeoutMs,
		});
		if (!fetched.ok) {
			if (fetched.failure === 'too-large') throw new FileError('file_too_large', tooLarge(name, kind), 'while downloading');
			const failure = FETCH_FAILURES[fetched.failure];
			throw new FileError(failure.code, failure.answer(name));
		}
		let text: string;
		if (kind === 'pdf') {
			const extracted = await pdfText(fetched.bytes, {
				maxPages: FILE_LIMITS.maxPages,
				timeoutMs: FILE_LIMITS.pdfTimeoutMs,
				maxCharacters: FILE_LIMITS.fileMaxCharacters,
			});
			if (!extracted.ok) throw new FileError(PDF_FAILURES[extracted.failure].code, PDF_FAILURES[extracted.failure].answer(name));
			text = extracted.text;
		} else {
			const decoded = decodeUtf8(fetched.bytes);
			if (decoded === undefined) throw new FileError('file_not_utf8', sentence('members.files.notUtf8', { name }));
			text = decoded;
		}
		const characters = characterCount(text);
		if (characters > FILE_LIMITS.fileMaxCharacters)
			throw new FileError('file_too_long', sentence('members.files.tooLong', { name, count: FILE_LIMITS.fileMaxCharacters }));
		total += characters;
		if (total > FILE_LIMITS.askMaxCharacters)
			throw new FileError('files_too_long', sentence('members.files.tooLongTogether', { count: FILE_LIMITS.askMaxCharacters }));
		texts.push({ name: file.name, text });
	}
	return texts;
}
