// An answer whose JSON text was made elsewhere (the read worker: reads/README.md) goes out with
// the same Content-Type as c.json's.
export const JSON_TYPE = { 'content-type': 'application/json' } as const;
