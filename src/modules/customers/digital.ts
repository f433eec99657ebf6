// What counts as digital (see downloads.ts): its own file, read by shipping (no shipping for
// digital lines) and the checkout's tax context, so they need not import the downloads route and
// through it the customers and orders services.

/** Entity types whose order lines carry downloads. */
export const DIGITAL_ENTITY_TYPES: readonly string[] = ['digitalDownload'];
