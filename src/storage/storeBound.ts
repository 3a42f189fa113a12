/**
 * How long one store operation may take before it fails with StoreError, on the keyv side and the atomic side
 * alike: an ask touches both, and a back end that hangs must fail it within the same bound whichever it reaches.
 */
export const STORE_OPERATION_TIMEOUT_MS = 1000;
