import { safeUrl } from './articleMarkdown';

/** Largest image turned into a data: URI. */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;

/**
 * Downloads an image the user clicked to see and returns it as a `data:` URI (the webview's CSP loads no remote
 * images). Only http(s); no credentials are sent; the answer must say `image/*` and stay under the size limit.
 */
export async function fetchImageDataUri(
  url: string,
  signal?: AbortSignal,
  maxBytes = MAX_IMAGE_BYTES,
): Promise<string> {
  const safe = safeUrl(url);
  if (!safe) {
    throw new Error('Only http and https images can be shown.');
  }
  const res = await fetch(safe, { signal, redirect: 'follow', credentials: 'omit', headers: { accept: 'image/*' } });
  if (!res.ok) {
    throw new Error(`The image could not be loaded (${res.status} ${res.statusText}).`);
  }
  const type = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (!type.startsWith('image/')) {
    throw new Error(`This link is not an image (${type || 'no content type'}).`);
  }
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    throw new Error(`The image is too large to show (${Math.round(declared / 1024 / 1024)} MB).`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  for (let part = await reader?.read(); part && !part.done; part = await reader?.read()) {
    size += part.value.byteLength;
    if (size > maxBytes) {
      await reader?.cancel();
      throw new Error('The image is too large to show.');
    }
    chunks.push(part.value);
  }
  return `data:${type};base64,${Buffer.concat(chunks).toString('base64')}`;
}
