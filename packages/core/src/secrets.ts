import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A newly issued token or secret key: the plain value is shown once, only the hash is stored. */
export interface IssuedSecret {
  /** The full secret, e.g. `sms_Xy…`; never stored. */
  value: string;
  /** SHA-256 hex of the value; the lookup key in the database. */
  hash: string;
  /** The prefix and first characters, safe to show in listings. */
  hint: string;
}

/** Issues 32 random bytes as base64url behind a readable prefix (`sms_`, `sbf_`, `sbt_`). */
export function issueSecret(prefix: string): IssuedSecret {
  const value = `${prefix}${randomBytes(32).toString('base64url')}`;
  return { value, hash: hashSecret(value), hint: `${value.slice(0, prefix.length + 4)}…` };
}

/** SHA-256 hex of a presented secret: tokens have 256 bits of entropy, so a fast hash is enough. */
export function hashSecret(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Compares two strings in constant time (for their common length; lengths are not secret). */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  if (left.length !== right.length) {
    // Still spend the comparison so that timing says nothing about the content.
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

const CIPHER_VERSION = 'v1';

/** Encrypts third-party credentials at rest with AES-256-GCM (`v1:iv:tag:ciphertext`, base64url parts). */
export function encryptCredential(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [CIPHER_VERSION, iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join(':');
}

/** Decrypts a value made by encryptCredential; throws when the key is wrong or the value was altered. */
export function decryptCredential(key: Buffer, sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split(':');
  if (version !== CIPHER_VERSION || !iv || !tag || ciphertext === undefined) throw new Error('unrecognised credential format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
