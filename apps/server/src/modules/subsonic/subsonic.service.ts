import { SubsonicMessages } from '@tonearm/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  extensionsAnswer,
  openSubsonicExtensions,
  systemMethods,
  type OpenSubsonicExtension,
} from './methods/system.methods.js';
import type { SubsonicAuth } from './subsonic-auth.js';
import { subsonicFail as fail, type MethodTable, type SubsonicAnswer } from './subsonic-method.js';
import type { SubsonicParams } from './subsonic-params.js';

/**
 * The Subsonic API's rules (issue 13): who the caller is, and what each method answers. Methods are looked up by
 * name; the transport (`/rest/<method>[.view]`, GET or formPost, JSON or XML) is the routes'.
 */
export class SubsonicService {
  private readonly methods: ReadonlyMap<string, MethodTable[string]>;

  /**
   * `groups`: the method tables of methods/*.methods.ts, joined after the system methods; `extensions`: what
   * getOpenSubsonicExtensions lists (openSubsonicExtensions of what the server has).
   */
  constructor(
    private readonly auth: SubsonicAuth,
    groups: readonly MethodTable[] = [],
    private readonly extensions: readonly OpenSubsonicExtension[] = openSubsonicExtensions({ transcoding: false }),
  ) {
    this.methods = new Map(Object.entries(Object.assign({}, systemMethods(), ...groups) as MethodTable));
  }

  /** The method names this server answers, in registration order (getOpenSubsonicExtensions first). */
  methodNames(): string[] {
    return ['getOpenSubsonicExtensions', ...this.methods.keys()];
  }

  /**
   * Runs one call: the method must exist (code 0 otherwise), and the caller must prove who they are first (SubsonicAuth),
   * except for getOpenSubsonicExtensions, which apps ask before they sign in.
   */
  async call(
    name: string,
    params: SubsonicParams,
    http: { request: FastifyRequest; reply: FastifyReply },
  ): Promise<SubsonicAnswer> {
    if (name === 'getOpenSubsonicExtensions') return extensionsAnswer(this.extensions);
    const method = this.methods.get(name);
    if (method === undefined) throw fail('generic', SubsonicMessages.unknownMethod(name));
    const { user, via } = await this.auth.authenticate(params, http.request.ip);
    const hiddenLibraries = await http.request.server.libraryAccess.hiddenFrom(user);
    return method.run({ params, caller: { user: { ...user, hiddenLibraries }, via }, ...http });
  }
}
