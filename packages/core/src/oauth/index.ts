// The authorization server's public surface: what a service mounts, checks tokens with and describes itself by.
export { AuthorizationServer, type AuthorizationServerOptions, type PresentedGrant } from './authorization-server.ts';
export type { DocumentFetchOptions } from './client-registry.ts';
export { OAuthError, OAUTH_ERROR_STATUS, oauthErrorBody, type OAuthErrorCode } from './oauth-errors.ts';
export { OAUTH_PREFIX, matchEndpointPath, type AccessLevel, type ResourceEndpoint } from './oauth-rules.ts';
export { registerOAuthRoutes, type OAuthRoutesOptions } from './oauth-routes.ts';
export type { OAuthTables } from './oauth-schema.ts';
export { bearerChallenge, resourceMetadataUrl, scopesOf, type GrantChoice, type OAuthResourceSpec } from './resource-spec.ts';
export type { OAuthAccess, TokenAnswer } from './token-service.ts';
