import { z } from 'zod';

/**
 * The generation response (docs/upstream.md §2), parsed once at the boundary. Members that page does not list are
 * dropped (a real service adds some). Fields the safety verdict needs are optional here on purpose: a missing
 * rating must reach the verdict and hide the reply (fail closed), not be confused with a broken body.
 */
export const HARM_CATEGORIES = [
	'HARM_CATEGORY_SEXUALLY_EXPLICIT',
	'HARM_CATEGORY_HATE_SPEECH',
	'HARM_CATEGORY_HARASSMENT',
	'HARM_CATEGORY_DANGEROUS_CONTENT',
] as const;

export type HarmCategory = (typeof HARM_CATEGORIES)[number];

const safetyRatingSchema = z.object({
	category: z.string(),
	probability: z.string(),
	blocked: z.boolean().optional(),
});

export type SafetyRating = z.infer<typeof safetyRatingSchema>;

const partSchema = z.object({ text: z.string().optional() });

const candidateSchema = z.object({
	content: z
		.object({
			parts: z.array(partSchema).optional(),
			role: z.string().optional(),
		})
		.optional(),
	finishReason: z.string().optional(),
	index: z.number().int().optional(),
	safetyRatings: z.array(safetyRatingSchema).optional(),
});

export const generationResponseSchema = z
	.object({
		candidates: z.array(candidateSchema).optional(),
		promptFeedback: z
			.object({
				blockReason: z.string().optional(),
				safetyRatings: z.array(safetyRatingSchema).optional(),
			})
			.optional(),
	})
	.refine((body) => (body.candidates?.length ?? 0) > 0 || body.promptFeedback !== undefined, {
		message: 'neither candidates nor promptFeedback',
	});

export type GenerationResponse = z.infer<typeof generationResponseSchema>;

/** The text of the first candidate, its parts joined. Empty when there is none. */
export function candidateText(response: GenerationResponse): string {
	const parts = response.candidates?.[0]?.content?.parts ?? [];
	return parts.map((part) => part.text ?? '').join('');
}
