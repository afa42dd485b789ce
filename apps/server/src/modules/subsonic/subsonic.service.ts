import { SubsonicMessages } from '@tonearm/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiKeysService } from './api-keys.service.js';
import { extensionsAnswer, systemMethods } from './methods/system.methods.js';
import { subsonicFail as fail, type MethodTable, type SubsonicAnswer, type SubsonicCaller } from './subsonic-method.js';
import type { SubsonicParams } from './subsonic-params.js';

/**
 * The Subsonic API's rules (issue 13): who the caller is, and what each method answers. Methods are looked up by
 * name; the transport (`/rest/<method>[.view]`, GET or formPost, JSON or XML) is the routes'.
 */
export class SubsonicService {
  private readonly methods: ReadonlyMap<string, MethodTable[string]>;

  /** `groups`: the method tables of methods/*.methods.ts, joined after the system methods. */
  constructor(
    private readonly apiKeys: ApiKeysService,
    groups: readonly MethodTable[] = [],
  ) {
    this.methods = new Map(Object.entries(Object.assign({}, systemMethods(), ...groups) as MethodTable));
  }

  /** The method names this server answers, in registration order (getOpenSubsonicExtensions first). */
  methodNames(): string[] {
    return ['getOpenSubsonicExtensions', ...this.methods.keys()];
  }

  /**
   * Runs one call: the method must exist (code 0 otherwise), and the caller must prove who they are first, except for
   * getOpenSubsonicExtensions, which apps ask before they sign in.
   */
  async call(
    name: string,
    params: SubsonicParams,
    http: { request: FastifyRequest; reply: FastifyReply },
  ): Promise<SubsonicAnswer> {
    if (name === 'getOpenSubsonicExtensions') return extensionsAnswer();
    const method = this.methods.get(name);
    if (method === undefined) throw fail('generic', SubsonicMessages.unknownMethod(name));
    const caller = await this.authenticate(params);
    return method.run({ params, caller, ...http });
  }

  /**
   * Who is calling. `apiKey` alone (OpenSubsonic apiKeyAuthentication); with any of u, p, t, s it is ambiguous (43).
   * App passwords (u+p, u+t+s) are the next step of issue 13: until then u+t+s answers 41 (no app password exists to
   * check the token against) and u+p answers 42.
   */
  async authenticate(params: SubsonicParams): Promise<SubsonicCaller> {
    const key = params.get('apiKey');
    const legacy = ['u', 'p', 't', 's'].some((name) => params.has(name));
    if (key !== undefined) {
      if (legacy) throw fail('conflictingAuth', SubsonicMessages.conflictingAuth);
      const user = await this.apiKeys.userOfKey(key);
      if (user === null) throw fail('invalidApiKey', SubsonicMessages.invalidApiKey);
      return { user, via: 'apiKey' };
    }
    if (!params.has('u')) throw fail('missingParameter', SubsonicMessages.missingAuth);
    if (params.has('p') && (params.has('t') || params.has('s'))) {
      throw fail('conflictingAuth', SubsonicMessages.conflictingAuth);
    }
    if (params.has('t')) {
      if (!params.has('s')) throw fail('missingParameter', SubsonicMessages.missingParameter('s'));
      throw fail('tokenAuthNotSupported', SubsonicMessages.appPasswordsNotYet);
    }
    if (params.has('p')) throw fail('authMechanismNotSupported', SubsonicMessages.passwordAuthNotYet);
    throw fail('missingParameter', SubsonicMessages.missingParameter('p'));
  }
}
