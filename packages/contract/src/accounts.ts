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

/** Texts of account creation, claiming the server and credentials (server answers and web app alike). */
export const AccountMessages = {
  registrationClosed: 'Registration is closed on this server. Ask an administrator to create an account for you.',
  invalidSetupCode:
    'This setup code is not valid: it is wrong, or the server already has an administrator. Use the address printed in the server log.',
  /** The sign-up form, when registering will make this account the administrator. */
  willAdminister: 'This account will administer the server: it manages the catalogue, the users and Premium.',
  enterCurrentPassword: 'Enter your current password',
  userCreated: (username: string) => `Created the account ${username}`,
  failedToCreateUser: 'Failed to create the account',
  loggedOutEverywhere: 'You were logged out on every device',
  failedToLogOutEverywhere: 'Could not log out everywhere',
} as const;
