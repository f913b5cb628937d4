// The cluster's S3-compatible store: s3rver (a dev dependency) on 127.0.0.1, objects on disk.
//   node --import tsx scripts/cluster/s3-server.ts <directory> <port> <bucket>
import S3rver from 's3rver';
import { letS3rverPage } from '../../test/helpers/s3rver-paging.ts';

const [directory, port, bucket] = process.argv.slice(2);
if (!directory || !port || !bucket) {
  process.stderr.write('usage: s3-server.ts <directory> <port> <bucket>\n');
  process.exit(64);
}
// Listings longer than one page need this on Node 17+ (see the helper).
letS3rverPage();
const server = new S3rver({ port: Number(port), address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
const { port: bound } = await server.run();
process.stdout.write(`s3 ready on http://127.0.0.1:${bound} (bucket ${bucket})\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
