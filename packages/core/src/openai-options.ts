/**
 * Options for the official `openai` client that set everything it would
 * otherwise read from the OPENAI_* environment (key, admin key, organization,
 * project, webhook secret, log level): a client built for one server never
 * sends the credentials meant for another. Without a key it sends no
 * Authorization header (local servers need none).
 */
export function isolatedOpenAIOptions(baseURL: string, apiKey: string | null | undefined) {
  return {
    baseURL,
    apiKey: apiKey || 'none',
    defaultHeaders: apiKey ? undefined : { authorization: null },
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    logLevel: 'off' as const,
  };
}
