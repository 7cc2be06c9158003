/**
 * The service's icon: a speech bubble on the platform's violet square (the ticket board shows bars, the flows
 * service a graph). Kept as text in the code, so the bundled service serves it with no file beside it and no CDN.
 */
export const FAVICON_SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">' +
    '<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#4f46e5"/><stop offset="1" stop-color="#7c3aed"/></linearGradient></defs>' +
    '<rect width="32" height="32" rx="7" fill="url(#g)"/>' +
    '<path d="M8 8h16a2.5 2.5 0 0 1 2.5 2.5v9a2.5 2.5 0 0 1-2.5 2.5h-9l-5 4v-4H8a2.5 2.5 0 0 1-2.5-2.5v-9A2.5 2.5 0 0 1 8 8z" fill="#fff"/>' +
    '<circle cx="11" cy="15" r="1.7" fill="#5b45e8"/><circle cx="16" cy="15" r="1.7" fill="#5b45e8"/><circle cx="21" cy="15" r="1.7" fill="#5b45e8"/>' +
    '</svg>',
);

/** Where the page links its icon. */
export const FAVICON_PATH = '/favicon.svg';
