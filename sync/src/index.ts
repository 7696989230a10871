export * from './errors.ts';
export * from './permissions.ts';
export * from './plan-features.ts';
export * from './domain/common.ts';
export * from './domain/auth.ts';
export * from './domain/setting.ts';
export * from './domain/user.ts';
