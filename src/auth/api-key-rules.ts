/** The shortest lifetime the CLI mints a key with (the spec's command-line minimum). */
export const MIN_API_KEY_TTL_SECONDS = 86_400;
