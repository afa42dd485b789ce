import { z } from 'zod';

/** REGISTRATION: open (anyone signs up) or closed (administrators create accounts). */
export const RegistrationMode = z.enum(['open', 'closed']);
export type RegistrationMode = z.infer<typeof RegistrationMode>;

/** Answer of GET /api/auth/options (public): what the sign-up form may offer to this browser. */
export const AuthOptions = z.object({
  registration: RegistrationMode,
  /**
   * True when an account registered from this request now would become the server's first administrator: the server
   * has none yet and the request comes from the machine itself. (With a setup code the web app knows from its URL.)
   */
  becomesAdministrator: z.boolean(),
});
export type AuthOptions = z.infer<typeof AuthOptions>;
