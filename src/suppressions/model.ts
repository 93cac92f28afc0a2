/** What put an address on the suppression list (DESIGN §8): the words the API shows and filters by. */
export const SUPPRESSION_ORIGINS = ["bounce", "complaint", "unsubscribe", "manual"] as const;
export type SuppressionOrigin = (typeof SUPPRESSION_ORIGINS)[number];
