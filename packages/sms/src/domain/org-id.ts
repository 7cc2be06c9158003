/** 1 to 64 characters of a-z 0-9 _ -, starting with a letter or digit. */
export const ORG_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** True when the text is a well-formed organization id. */
export function isValidOrgId(text: string): boolean {
  return ORG_ID_PATTERN.test(text);
}
