import argon2 from 'argon2';

// argon2id with the library's defaults (64 MiB, t=3, p=4) unless the ARGON2_* variables lower them
// (the test suite does, to stay fast). A dummy hash keeps the timing of an unknown email close to
// that of a wrong password.
const env = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
const options: argon2.HashOptions & { raw?: false } = {
  type: argon2.argon2id,
  ...(env('ARGON2_MEMORY_KIB') ? { memoryCost: env('ARGON2_MEMORY_KIB') } : {}),
  ...(env('ARGON2_TIME_COST') ? { timeCost: env('ARGON2_TIME_COST') } : {}),
  ...(env('ARGON2_PARALLELISM') ? { parallelism: env('ARGON2_PARALLELISM') } : {}),
};

export const hashPassword = (plain: string): Promise<string> => argon2.hash(plain, options);

export async function verifyPassword(hash: string | null | undefined, plain: string): Promise<boolean> {
  try {
    return await argon2.verify(hash ?? (await dummyHash()), plain);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
const dummyHash = () => (dummy ??= hashPassword(`not-a-real-password-${Math.random()}`));
