// Values a sweep of bad input sends for one field, read from the field's JSON Schema (an OpenAPI
// document's, or zod's own): its own kinds at and past their limits (the largest id, one past it,
// an empty, an over-long, a malformed date), each enum value, then values of other types.

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  anyOf?: JsonSchema[];
  enum?: unknown[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  maximum?: number;
  minimum?: number;
  maxLength?: number;
  minLength?: number;
};

/** `resolve` follows a `$ref` (an OpenAPI document's components); none by default. */
export function badValues(schema: JsonSchema | undefined, resolve: (ref: string) => JsonSchema | undefined = () => undefined): unknown[] {
  const s = schema?.$ref ? resolve(schema.$ref) : schema;
  if (!s) return [];
  if (s.anyOf) return s.anyOf.flatMap((alt) => badValues(alt, resolve));
  const out: unknown[] = [...(s.enum ?? [])];
  for (const type of Array.isArray(s.type) ? s.type : [s.type]) {
    if (type === 'integer' || type === 'number') out.push(s.maximum ?? 2147483647, (s.maximum ?? 2147483647) + 1, s.minimum ?? 0, -1, 0, 1.5, 1e308);
    if (type === 'string') out.push('', 'x'.repeat((s.maxLength ?? 5000) + 1), 'x'.repeat(s.maxLength ?? 5000), '2026-13-45T99:99:99Z', '../../etc/passwd', 'é€😀', '1');
    if (type === 'boolean') out.push(true, false);
    if (type === 'array') out.push([], [null], ['x'], [{}], ...badValues(s.items, resolve).slice(0, 4).map((v) => [v]));
    if (type === 'object') out.push({}, []);
  }
  return [...out, 'wrong', 12345, true, null, [], {}];
}
