/** What Veil makes of an attachment: text it reads as UTF-8, a PDF whose text it extracts, or neither. */
export type AttachmentKind = 'text' | 'pdf' | 'unsupported';

const TEXT_TYPES: ReadonlySet<string> = new Set([
	'application/json',
	'application/ld+json',
	'application/x-ndjson',
	'application/xml',
	'application/yaml',
	'application/x-yaml',
	'application/toml',
	'application/javascript',
	'application/typescript',
	'application/x-sh',
	'application/sql',
	'application/x-httpd-php',
	'application/x-python',
]);

/** Source code and plain-text formats, by extension: Discord often labels them `application/octet-stream` or nothing. */
const TEXT_EXTENSIONS: ReadonlySet<string> = new Set(
	(
		'txt text md markdown rst log csv tsv json jsonl ndjson xml yaml yml toml ini cfg conf env properties diff patch ' +
		'js mjs cjs ts mts cts tsx jsx py pyi rb go rs java kt kts scala groovy gradle c h cc cpp cxx hpp hh cs fs php ' +
		'sh bash zsh fish ps1 bat cmd sql html htm css scss sass less lua swift m mm r pl pm dart vue svelte astro ex exs ' +
		'erl hs ml elm clj cljs lisp el vim tf hcl nix zig nim jl proto graphql gql dockerfile makefile cmake svg tex'
	).split(' '),
);

/** TypeScript's extensions, which Discord's type guessing calls MPEG transport streams. */
const TYPESCRIPT_EXTENSIONS: ReadonlySet<string> = new Set(['ts', 'mts', 'cts']);

/** Names with no extension that are text all the same. */
const TEXT_NAMES: ReadonlySet<string> = new Set(['dockerfile', 'makefile', 'readme', 'license', 'gemfile', 'procfile']);

function extensionOf(filename: string): string {
	const lower = filename.toLowerCase();
	const dot = lower.lastIndexOf('.');
	return dot <= 0 ? lower : lower.slice(dot + 1);
}

/** Media types no name overrules: an image called `notes.txt` is still an image. */
const MEDIA_TYPES = /^(image|audio|video|font|model)\//;

/**
 * The kind of an attachment, from the content type Discord reports (its parameters ignored) and then the file's
 * extension. A media type (an image, a sound, a video) is not overruled by its name, but an `application/` type is
 * when the name is a text file's: Discord labels by extension, so a Ruby or Perl script arrives as
 * `application/x-ruby` or `application/x-perl`, and a TypeScript file as `video/mp2t` (the MPEG stream's `.ts`).
 * Whatever is called text must still decode as strict UTF-8 (decodeUtf8), so a mislabelled archive is refused there.
 */
export function attachmentKind(filename: string, contentType: string | undefined): AttachmentKind {
	const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
	if (type === 'application/pdf') return 'pdf';
	if (type.startsWith('text/') || TEXT_TYPES.has(type) || type.endsWith('+json') || type.endsWith('+xml')) return 'text';
	const extension = extensionOf(filename);
	if (type === 'video/mp2t' && TYPESCRIPT_EXTENSIONS.has(extension)) return 'text';
	if (MEDIA_TYPES.test(type)) return 'unsupported';
	if (extension === 'pdf') return 'pdf';
	return TEXT_EXTENSIONS.has(extension) || TEXT_NAMES.has(filename.toLowerCase()) ? 'text' : 'unsupported';
}
