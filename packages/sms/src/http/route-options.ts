/**
 * Route options for endpoints that validate by hand (pydantic wording): the
 * zod schemas still document them in /openapi.json, but neither validate
 * the request nor slow the response down.
 */
export const handValidated = {
  validatorCompiler: () => (value: unknown) => ({ value }),
  serializerCompiler: () => (data: unknown) => JSON.stringify(data),
};
