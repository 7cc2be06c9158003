/** A build that failed; the message is one line naming the first error's file and position. */
export class BuildError extends Error {}
