// The server-sent events client of the tests lives in core's testing helpers (the SMS console's tests use it too).
export { openEventStream, type EventStream, type ReceivedEvent } from '@switchboard/core/testing';
