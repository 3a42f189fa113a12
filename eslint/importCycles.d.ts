import type { ESLint } from 'eslint';

/** The project's own ESLint rules (see importCycles.js). */
export declare const importCycles: ESLint.Plugin;
