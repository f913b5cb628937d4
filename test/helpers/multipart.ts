// Multipart bodies for app.inject(), encoded by the platform's own FormData (as a browser or a
// Strapi client would send them).
export interface MultipartFile {
  name: string;
  content: Buffer | string;
  type?: string;
}

export type MultipartField = string | MultipartFile | MultipartFile[];

export async function multipart(fields: Record<string, MultipartField | MultipartField[]>): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    for (const item of (Array.isArray(value) ? value : [value]).flat()) {
      if (typeof item === 'string') form.append(key, item);
      else form.append(key, new Blob([item.content], { type: item.type ?? '' }), item.name);
    }
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}
