// cms api <method> <path> [--data json|@file] [--query k=v]… — any management API route with the
// session of `cms login` (or CMS_TOKEN), for scripts: the answer's JSON on stdout (other types as
// they come, nothing for a 204); a refusal is the server's message on stderr and exit 1.
// `GET /v1/openapi.json` lists every route.
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { connect, UsageError } from '../context.ts';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** `/v1/projects`, or `projects` / `/projects` made into it. */
export function apiPath(path: string): string {
  const absolute = path.startsWith('/') ? path : `/${path}`;
  return absolute === '/v1' || absolute.startsWith('/v1/') || absolute.startsWith('/v1?') ? absolute : `/v1${absolute}`;
}

/** `--data`: JSON text, `@file` (its content) or `@-` (stdin). */
async function body(data: string): Promise<unknown> {
  const text = data === '@-' ? await readStdin() : data.startsWith('@') ? await readData(data.slice(1)) : data;
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--data is not JSON: ${(err as Error).message}`);
  }
}

async function readData(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The path with each `k=v` of `--query` appended (encoded). */
function withQuery(path: string, pairs: string[]): string {
  if (pairs.length === 0) return path;
  const params = new URLSearchParams();
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--query ${pair}: expected key=value`);
    params.append(pair.slice(0, at), pair.slice(at + 1));
  }
  return `${path}${path.includes('?') ? '&' : '?'}${params}`;
}

export function registerApi(program: Command): void {
  program
    .command('api')
    .description('call a management API route (/v1) with the session and print its JSON answer')
    .argument('<method>', METHODS.join(', '))
    .argument('<path>', 'the route\'s path, e.g. /v1/projects (or /projects)')
    .option('-d, --data <json>', 'the JSON body, or @file, or @- for stdin')
    .option('-q, --query <key=value>', 'a query parameter (repeatable)', (value: string, all: string[]) => [...all, value], [] as string[])
    .addHelpText('after', '\nEvery route: GET /v1/openapi.json. Example: cms api post /v1/projects --data \'{"name":"Blog"}\'')
    .action(async (method: string, path: string, options: { data?: string; query: string[] }, command: Command) => {
      const verb = method.toUpperCase();
      if (!METHODS.includes(verb)) throw new UsageError(`Unknown method ${method}: one of ${METHODS.join(', ')}`);
      const target = withQuery(apiPath(path), options.query);
      const payload = options.data === undefined ? undefined : await body(options.data);
      const api = await connect(command);
      const answer = await api.requestText(verb, target, { body: payload });
      if (answer.text === '') return;
      if (/^application\/(?:[\w.+-]+\+)?json\b/.test(answer.contentType)) process.stdout.write(`${JSON.stringify(JSON.parse(answer.text), null, 2)}\n`);
      else process.stdout.write(answer.text);
    });
}
