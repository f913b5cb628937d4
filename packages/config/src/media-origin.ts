// The origin media files are served from when it is not the gateway's own: a CDN
// (MEDIA_PUBLIC_URL) or the S3 bucket. Pages that show those files (the dashboard's Content
// Security Policy) must allow it. Mirrors how @cms/media builds the files' URLs.

interface MediaLocation {
  s3?: { bucket: string; endpoint?: string; region: string };
  media: { publicUrl?: string };
}

/** `scheme://host[:port]` of absolute media URLs; null when files are served by the gateway itself. */
export function mediaOrigin(config: MediaLocation): string | null {
  const originOf = (url: string) => {
    try {
      const parsed = new URL(url);
      return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
    } catch {
      return null;
    }
  };
  if (config.media.publicUrl) return originOf(config.media.publicUrl);
  if (!config.s3) return null;
  // A custom endpoint (MinIO, …) is addressed path-style; AWS virtual-hosted style.
  if (config.s3.endpoint) return originOf(config.s3.endpoint);
  return `https://${config.s3.bucket}.s3.${config.s3.region}.amazonaws.com`;
}
