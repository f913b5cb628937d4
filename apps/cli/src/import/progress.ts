// A progress bar per import stage on a terminal (cli-progress, on stderr); elsewhere (CI, logs)
// plain lines without escape codes or carriage returns — one per batch (per file in the files
// stage) — so a log shows how far an import got.
import cliProgress from 'cli-progress';
import type { StageProgress } from '@cms/strapi-import';

/**
 * `total`: the stage's size when the source knows it in advance (null: the bar grows with the
 * count). `stop` ends the bar and writes `<stage>: <summary>` on a line of its own.
 */
export function stageProgress(stage: string, total: number | null, out: NodeJS.WritableStream & { isTTY?: boolean } = process.stderr): StageProgress {
  if (out.isTTY) {
    const bar = new cliProgress.SingleBar({
      stream: out as NodeJS.WriteStream,
      format: total === null ? `${stage.padEnd(10)} {value}` : `${stage.padEnd(10)} [{bar}] {percentage}% {value}/{total}`,
      hideCursor: true,
      clearOnComplete: true,
    }, cliProgress.Presets.shades_classic);
    bar.start(total ?? 0, 0);
    return {
      update(done) {
        if (total === null || done > total) bar.setTotal(done);
        bar.update(done);
      },
      stop(summary) {
        bar.stop();
        out.write(`${stage}: ${summary}\n`);
      },
    };
  }
  return {
    update(done) {
      out.write(`${stage}: ${done}${total === null ? '' : `/${total}`}\n`);
    },
    stop(summary) {
      out.write(`${stage}: ${summary}\n`);
    },
  };
}
