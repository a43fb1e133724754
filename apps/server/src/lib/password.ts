import type * as Argon2 from '@node-rs/argon2';

// Loaded at the first hash or verify, not at start (ADR 0058: a start pays only for what it uses).
let argon2: Promise<typeof Argon2> | undefined;
const lib = () => (argon2 ??= import('@node-rs/argon2'));

/**
 * CONTRACT "Identity": passwords are hashed with a memory-hard KDF. argon2id with the library's
 * defaults (19 MiB, 2 passes): about 17 ms a hash on these machines (STACK).
 */
export const hashPassword = async (password: string): Promise<string> => (await lib()).hash(password);

/** Constant-time comparison inside the library; false for a malformed hash instead of a throw. */
export const verifyPassword = async (passwordHash: string, password: string): Promise<boolean> => {
  try {
    return await (await lib()).verify(passwordHash, password);
  } catch {
    return false;
  }
};
