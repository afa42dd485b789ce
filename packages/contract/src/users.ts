import { z } from 'zod';
import { textField } from './text.js';
import { PageCursor, Paging } from './common.js';

export const Role = z.enum(['USER', 'ADMIN']);
export type Role = z.infer<typeof Role>;

export const Gender = z.enum(['male', 'female', 'other', 'unspecified']);
export type Gender = z.infer<typeof Gender>;

export const Username = z
  .string()
  .trim()
  .min(3, 'Username must be at least 3 characters')
  .max(32, 'Username must be at most 32 characters')
  .regex(/^[A-Za-z0-9_.-]+$/, 'Username may use letters, digits, dot, dash and underscore');
export const Email = z.string().trim().toLowerCase().max(254).pipe(z.email('Enter a valid email address'));
export const Password = z
  .string()
  .min(8, 'Password must be at least 8 characters')
  .max(128, 'Password must be at most 128 characters');
export const Address = textField('many').trim().max(300, 'Address must be at most 300 characters');

/** User JSON of DESIGN §4. `premium` is derived: true while premiumUntil lies in the future. */
export const User = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  gender: Gender.nullable(),
  role: Role,
  address: z.string().nullable(),
  image: z.string().nullable(),
  premium: z.boolean(),
  premiumUntil: z.string().nullable(),
});
export type User = z.infer<typeof User>;

/** A server's one-time setup code (printed in its log as `/?setup=CODE` while it has no administrator). */
export const SetupCode = z.string().trim().min(1, 'Enter the setup code').max(128);

export const RegisterRequest = z.object({
  username: Username,
  email: Email,
  password: Password,
  gender: Gender.optional(),
  address: Address.optional(),
  /** Claims the server: with the right code, the account becomes its first administrator. */
  setupCode: SetupCode.optional(),
});
export type RegisterRequest = z.infer<typeof RegisterRequest>;

export const LoginRequest = z.object({
  /** Username or email. */
  username: z.string().trim().min(1, 'Enter your username or email').max(254),
  password: z.string().min(1, 'Enter your password').max(128),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

/** POST /api/users (administrators): the fields of registration, and the role (USER unless said). */
export const CreateUserRequest = z.object({
  username: Username,
  email: Email,
  password: Password,
  gender: Gender.optional(),
  address: Address.optional(),
  role: Role.optional(),
});
export type CreateUserRequest = z.infer<typeof CreateUserRequest>;

/** DELETE /api/users/{id}: deleting one's own account needs the current password (an admin deleting another, none). */
export const DeleteUserRequest = z.object({ currentPassword: z.string().max(128).optional() });
export type DeleteUserRequest = z.infer<typeof DeleteUserRequest>;

/**
 * PUT /api/users/{id}. Self: profile fields; a new username, email or password only together with currentPassword.
 * Admin: additionally role and premium (true grants indefinitely, false revokes) or an explicit premiumUntil.
 */
export const UpdateUserRequest = z
  .object({
    username: Username.optional(),
    email: Email.optional(),
    gender: Gender.nullable().optional(),
    address: Address.nullable().optional(),
    password: Password.optional(),
    currentPassword: z.string().max(128).optional(),
    role: Role.optional(),
    premium: z.boolean().optional(),
    premiumUntil: z.iso.datetime().nullable().optional(),
  })
  .strict();
export type UpdateUserRequest = z.infer<typeof UpdateUserRequest>;

export const UserSort = z.enum(['username', 'email', 'role', 'premiumUntil', 'createdAt']);
export const UserListQuery = Paging.extend({
  q: textField().trim().max(100).optional(),
  sort: UserSort.optional(),
  order: z.enum(['asc', 'desc']).optional(),
  /** Keyset paging (issue 11): the previous answer's `nextCursor`; it stands for the same sort, order and q. */
  cursor: PageCursor.optional(),
});
export type UserListQuery = z.infer<typeof UserListQuery>;

/** `nextCursor` pages on in the same sort (null at the end); `offset` still works for older clients. */
export const UserListResponse = z.object({
  users: z.array(User),
  total: z.number().int(),
  nextCursor: z.string().nullable(),
});
export type UserListResponse = z.infer<typeof UserListResponse>;

/** `/api/users/username/{username}`. */
export const UsernameParam = z.object({ username: z.string().trim().min(1).max(254) });
