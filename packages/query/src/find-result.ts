// What a compiled list read answers (shared by compiled-read.ts and run-find.ts).
export interface FindResult {
  /** The page as JSON array text, ready to splice into `{"data":…}`. */
  json: string;
  /** null when `withCount` is false */
  total: number | null;
}
