import { z } from 'zod';
import { HARM_CATEGORIES, type HarmCategory } from '../../src/generation/generationResponse.js';

/** What the model panel decides for the next answers: their safety ratings, a delay, or a failure. */
export const modelChoicesSchema = z.object({
	/** null: every category NEGLIGIBLE; otherwise one category rated at this level, the others NEGLIGIBLE. */
	rating: z.object({ category: z.enum(HARM_CATEGORIES), level: z.enum(['LOW', 'MEDIUM', 'HIGH']) }).nullable(),
	delayMs: z.number().int().min(0).max(120_000),
	/** '500': an internal error; 'timeout': no answer at all, until Veil gives up. */
	failure: z.enum(['none', '500', 'timeout']),
});

export type ModelChoices = z.infer<typeof modelChoicesSchema>;

export const DEFAULT_CHOICES: ModelChoices = { rating: null, delayMs: 800, failure: 'none' };

/** A change from the model panel: only the choices it names. */
export const modelChangeSchema = modelChoicesSchema.partial().strict();

/** How Veil's standing instructions open a body (src/conversations/buildContents.ts): a user turn, then "Understood.". */
const INSTRUCTIONS_OPENING = "Instructions from this server's moderators:";

/** What a generation body holds, as the local model answers it. */
export interface ReadBody {
	prompt: string;
	files: string[];
	/** The conversation's turns, this one included, the instructions' two turns left out. */
	turns: number;
	/** The standing instructions that came ahead of the conversation, if any. */
	instructions?: string;
}

/** Reads a generation body: its last user turn (prompt, then files), how long the conversation is, its instructions. */
export function readBody(body: unknown): ReadBody | undefined {
	const turn = lastTurnOf(body);
	if (!turn) return undefined;
	const contents = (body as { contents: Array<{ parts?: Array<{ text?: unknown }> }> }).contents;
	const first = contents[0]?.parts?.[0]?.text;
	const instructions =
		typeof first === 'string' && first.startsWith(INSTRUCTIONS_OPENING) ? first.slice(INSTRUCTIONS_OPENING.length).trim() : undefined;
	const turns = Math.ceil((contents.length - (instructions === undefined ? 0 : 2)) / 2);
	return { ...turn, turns, ...(instructions === undefined ? {} : { instructions }) };
}

/** The last user turn of a generation body: its prompt (the first part), then any files (the parts after it). */
export function lastTurnOf(body: unknown): { prompt: string; files: string[] } | undefined {
	const contents = (body as { contents?: Array<{ role?: string; parts?: Array<{ text?: unknown }> }> } | undefined)?.contents;
	if (!Array.isArray(contents) || contents.length === 0) return undefined;
	const turn = [...contents].reverse().find((c) => c.role === undefined || c.role === 'user');
	const texts = (turn?.parts ?? []).map((part) => part.text).filter((t): t is string => typeof t === 'string');
	const [prompt, ...files] = texts;
	return prompt === undefined ? undefined : { prompt, files };
}

const OPENINGS = ['Here is a short answer.', 'Good question.', 'Let me put it simply.', 'In a few words:', 'Happy to help.'];

const BODIES = [
	'The sandbox model does not know anything, but it always answers the same question the same way, so you can watch Veil work.',
	'This answer comes from the local model of the sandbox: deterministic, rated by the model panel, and never sent anywhere.',
	'Try the model panel on the right: rate the next answer HIGH in one category and Veil hides it for the moderators.',
	'Switch to the moderator to see what the mod-log shows when an answer is held back.',
];

/** A deterministic answer: the same prompt always gets the same text. */
export function answerText(prompt: string, turns: number, files: readonly string[] = [], instructions?: string): string {
	let hash = 0;
	for (const char of prompt) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
	const opening = OPENINGS[hash % OPENINGS.length] as string;
	const body = BODIES[(hash >>> 3) % BODIES.length] as string;
	const quoted = clip(prompt, 120);
	const followUp = turns > 1 ? ` (This is turn ${turns} of our conversation.)` : '';
	const attached =
		files.length > 0
			? ` I received ${files.length} file${files.length > 1 ? 's' : ''} (${files.reduce((n, f) => n + f.length, 0)} characters) with it.`
			: '';
	const told =
		instructions === undefined ? '' : ` I was given the server's instructions (${instructions.length} characters): “${clip(instructions, 60)}”.`;
	return `${opening} You asked: “${quoted}”.${told}${attached} ${body}${followUp}`;
}

function clip(text: string, length: number): string {
	return text.length > length ? `${text.slice(0, length - 3)}…` : text;
}

/** A generation response in the seed's shape (section 2.2), with the ratings the panel chose on the candidate. */
export function generationBody(text: string, rating: ModelChoices['rating']): Record<string, unknown> {
	const negligible = HARM_CATEGORIES.map((category: HarmCategory) => ({ category, probability: 'NEGLIGIBLE' }));
	const candidateRatings = HARM_CATEGORIES.map((category: HarmCategory) => ({
		category,
		probability: rating && rating.category === category ? rating.level : 'NEGLIGIBLE',
	}));
	return {
		candidates: [{ content: { parts: [{ text }], role: 'model' }, finishReason: 'STOP', index: 0, safetyRatings: candidateRatings }],
		promptFeedback: { safetyRatings: negligible },
		usageMetadata: { promptTokenCount: 8, candidatesTokenCount: Math.ceil(text.length / 4), totalTokenCount: 8 + Math.ceil(text.length / 4) },
		modelVersion: 'sandbox-local-1',
	};
}
