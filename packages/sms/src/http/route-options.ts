/**
 * Route options for endpoints that validate by hand (pydantic wording): the
 * zod schemas still document them in /openapi.json, but neither validate
 * the request nor slow the response down.
 */
export const handValidated = {
  validatorCompiler: () => (value: unknown) => ({ value }),
  // A string is JSON text the handler already built (the listing); anything else is serialized here.
  serializerCompiler: () => (data: unknown) => (typeof data === 'string' ? data : JSON.stringify(data)),
};
