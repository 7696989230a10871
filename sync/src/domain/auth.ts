import { z } from 'zod';
import { emailSchema } from './common.ts';
import { sessionUserSchema } from './user.ts';

export const loginSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, 'Required').max(200),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** Step two of the reset (spec/01 §5): at least 8 characters with an uppercase, a lowercase and a digit. */
export const newPasswordSchema = z
  .string()
  .min(8, 'Too Short!')
  .max(50, 'Too Long!')
  .regex(/[A-Z]/, 'Needs an uppercase letter')
  .regex(/[a-z]/, 'Needs a lowercase letter')
  .regex(/[0-9]/, 'Needs a number');

export const forgotPasswordSchema = z.object({ email: emailSchema });
export const resetPasswordSchema = z.object({
  email: emailSchema,
  token: z.string().trim().min(4).max(64),
  newPassword: newPasswordSchema,
});

export const SUBSCRIPTION_WARNING_DAYS = 5;
export const SIGNUP_TRIAL_DAYS = 3;

/**
 * What POST /auth/login and POST /auth/refresh_token answer (the refresh token travels in an httpOnly
 * cookie); `daysLeft` lets clients warn when fewer than SUBSCRIPTION_WARNING_DAYS remain.
 */
export const sessionAnswerSchema = z.object({
  token: z.string().describe('The access token (bearer)'),
  user: sessionUserSchema,
  subscription: z.object({ dueDate: z.string().nullable(), daysLeft: z.number().int().nullable(), expiresSoon: z.boolean() }),
});
export type SessionAnswer = z.infer<typeof sessionAnswerSchema>;
