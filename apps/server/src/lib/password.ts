import { hash, verify } from '@node-rs/argon2';

/**
 * CONTRACT "Identity": passwords are hashed with a memory-hard KDF. argon2id with the library's
 * defaults (19 MiB, 2 passes): about 17 ms a hash on these machines (STACK).
 */
export const hashPassword = (password: string): Promise<string> => hash(password);

/** Constant-time comparison inside the library; false for a malformed hash instead of a throw. */
export const verifyPassword = async (passwordHash: string, password: string): Promise<boolean> => {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
};
