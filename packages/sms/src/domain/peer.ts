// Pure and free of dependencies: the console's UI runs it too.

/** The conversation a message belongs to: the other party's number (`from` of an inbound message, `to` of an outbound one). */
export function peerOf(message: { direction: 'inbound' | 'outbound'; from: string; to: string }): string {
  return message.direction === 'inbound' ? message.from : message.to;
}
