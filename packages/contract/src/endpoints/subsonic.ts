import { endpoint } from './define.js';

/**
 * API keys for Subsonic apps (issue 13, the OpenSubsonic `apiKeyAuthentication` extension): the account's owner or an
 * admin creates, lists and revokes them; anyone else is answered 404, as for the account itself.
 */
export const apiKeys = {
  create: endpoint({
    method: 'POST',
    path: '/api/users/:id/api-keys',
    access: 'owner',
    summary: 'Creates an API key for Subsonic apps; the key is answered this once',
    params: 'IdParam',
    body: 'CreateApiKeyRequest',
    responses: { 201: 'CreatedApiKey' },
  }),
  list: endpoint({
    method: 'GET',
    path: '/api/users/:id/api-keys',
    access: 'owner',
    params: 'IdParam',
    responses: { 200: 'ApiKeyListResponse' },
  }),
  revoke: endpoint({
    method: 'DELETE',
    path: '/api/users/:id/api-keys/:keyId',
    access: 'owner',
    params: 'ApiKeyParam',
    responses: { 204: 'empty' },
  }),
} as const;
