// A file as the content API answers it inside a document (`populate=cover`): what a media field
// holds. Its own module so the library's modules and MediaField share it without an import cycle.
export interface MediaFile {
  id: number;
  name: string;
  url: string;
  mime: string;
  alternativeText: string | null;
  formats: Record<string, { url: string }> | null;
  width?: number | null;
  height?: number | null;
}
