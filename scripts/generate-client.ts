// `make client`: writes the management API's document and types into @cms/management-api
// (src/generated/), from the routes' schemas, with no database or network.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CLIENT_FILES, generateClient } from './management-client.ts';

const { document, types } = await generateClient();
await mkdir(dirname(CLIENT_FILES.document), { recursive: true });
await writeFile(CLIENT_FILES.document, document);
await writeFile(CLIENT_FILES.types, types);
process.stdout.write(`Wrote ${CLIENT_FILES.document} and ${CLIENT_FILES.types}\n`);
