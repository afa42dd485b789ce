import { endpoint } from './define.js';

/** Scrobbling out (issue 28): each listener connects their own ListenBrainz and Last.fm accounts. */
export const scrobbling = {
  accounts: endpoint({
    method: 'GET',
    path: '/api/scrobbling',
    access: 'session',
    description: "The caller's connected services: state, last sent, last error, queued count (never the secrets).",
    responses: { 200: 'ScrobbleAccounts' },
  }),
  connectListenBrainz: endpoint({
    method: 'PUT',
    path: '/api/scrobbling/listenbrainz',
    access: 'session',
    body: 'ListenBrainzConnect',
    description: 'Connects ListenBrainz with a user token, checked with the service first (400 when refused).',
    responses: { 200: 'ScrobbleAccount' },
  }),
  connectLastFm: endpoint({
    method: 'PUT',
    path: '/api/scrobbling/lastfm',
    access: 'session',
    body: 'LastFmConnect',
    description: 'Connects Last.fm with an API key, its secret and a session key, checked with the service first.',
    responses: { 200: 'ScrobbleAccount' },
  }),
  disconnect: endpoint({
    method: 'DELETE',
    path: '/api/scrobbling/:service',
    access: 'session',
    params: 'ScrobbleServiceParam',
    description: 'Disconnects the service; what waited to be sent to it is dropped.',
    responses: { 204: 'empty' },
  }),
} as const;
