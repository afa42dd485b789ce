import { SubsonicErrorCodes, SubsonicMessages } from '@tonearm/contract';
import type { UserRow } from '../../db/schema.js';
import type { ApiKeysService } from './api-keys.service.js';
import { SubsonicError, type SubsonicNode } from './subsonic.response.js';
import type { SubsonicParams } from './subsonic-params.js';

/** Who made a call, and how they proved it (`tokenInfo` answers for API keys only). */
export interface SubsonicCaller {
  user: UserRow;
  via: 'apiKey';
}

/** A method: what it answers inside the envelope, for a signed-in caller (or null for the few that need none). */
type Method = (params: SubsonicParams, caller: SubsonicCaller | null) => SubsonicNode | Promise<SubsonicNode>;

interface MethodEntry {
  readonly run: Method;
  /** Answered without credentials (OpenSubsonic: getOpenSubsonicExtensions). */
  readonly open?: boolean;
}

/** The OpenSubsonic extensions this server implements, with their versions. */
export const OPEN_SUBSONIC_EXTENSIONS = [
  { name: 'formPost', versions: [1] },
  { name: 'apiKeyAuthentication', versions: [1] },
] as const;

const fail = (code: keyof typeof SubsonicErrorCodes, message: string) =>
  new SubsonicError(SubsonicErrorCodes[code], message);

/**
 * The Subsonic API's rules (issue 13): who the caller is, and what each method answers. Methods are looked up by
 * name; the transport (`/rest/<method>[.view]`, GET or formPost, JSON or XML) is the routes'.
 */
export class SubsonicService {
  private readonly methods: ReadonlyMap<string, MethodEntry>;

  constructor(private readonly apiKeys: ApiKeysService) {
    this.methods = new Map<string, MethodEntry>([
      ['ping', { run: () => ({}) }],
      ['getLicense', { run: () => ({ license: { valid: true } }) }],
      [
        'getOpenSubsonicExtensions',
        {
          open: true,
          run: () => ({ openSubsonicExtensions: OPEN_SUBSONIC_EXTENSIONS.map((e) => ({ ...e })) }),
        },
      ],
      ['tokenInfo', { run: (_params, caller) => ({ tokenInfo: { username: caller?.user.username ?? '' } }) }],
    ]);
  }

  /** The method names this server answers, in registration order. */
  methodNames(): string[] {
    return [...this.methods.keys()];
  }

  /** Runs one call: the method must exist (code 0 otherwise), and the caller must prove who they are first. */
  async call(name: string, params: SubsonicParams): Promise<SubsonicNode> {
    const method = this.methods.get(name);
    if (method === undefined) throw fail('generic', SubsonicMessages.unknownMethod(name));
    const caller = method.open === true ? null : await this.authenticate(params);
    return method.run(params, caller);
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
