import { z } from 'zod';
import { emailSchema } from './common.ts';

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
