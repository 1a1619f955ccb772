/** Prints the client types for the OpenAPI document in the file given (used by the drift test). */
import { readFileSync } from 'node:fs';
import { clientTypesFor } from './client-types';

clientTypesFor(JSON.parse(readFileSync(process.argv[2], 'utf8')))
  .then((types) => process.stdout.write(types))
  .catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
