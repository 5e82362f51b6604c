// Argon2id with the library's defaults (19 MiB, 2 passes, 1 lane): OWASP's minimum setting.
// The native library loads at the first password a server sees, not at every start.
const argon2 = () => import("@node-rs/argon2");

/** The password's Argon2id hash, as a PHC string with its own salt and parameters. */
export async function hashPassword(password: string): Promise<string> {
  return (await argon2()).hash(password);
}

/** A hash of no password, checked when the email address is unknown so that both cases take as long. */
const unknownUserHash =
  "$argon2id$v=19$m=19456,t=2,p=1$bm8tc3VjaC11c2Vy$2pBkYwIkD5vM3o1q0h1k1j3nA5Rr4aN0n8sP4mQj2cU";

/** Whether `password` is the one hashed; a missing hash (no such user) is checked all the same and fails. */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  const { verify } = await argon2();
  try {
    const matches = await verify(passwordHash ?? unknownUserHash, password);
    return passwordHash !== null && matches;
  } catch {
    return false;
  }
}
