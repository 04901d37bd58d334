import { safeUrl } from './articleMarkdown';

/** Largest image turned into a data: URI. */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;

/** Fetches a public URL (no key) and returns its content type and bytes; `HttpClient.fetchPublic` fits. */
export type PublicFetch = (
  url: URL,
  options: { accept: string; maxBytes: number; signal?: AbortSignal },
) => Promise<{ contentType: string; bytes: Uint8Array }>;

/**
 * Downloads an image the user clicked to see and returns it as a `data:` URI (the webview's CSP loads no remote
 * images). Only http(s); no key is sent; the answer must say `image/*` and stay under the size limit.
 */
export async function fetchImageDataUri(
  fetchPublic: PublicFetch,
  url: string,
  signal?: AbortSignal,
  maxBytes = MAX_IMAGE_BYTES,
): Promise<string> {
  const safe = safeUrl(url);
  if (!safe) {
    throw new Error('Only http and https images can be shown.');
  }
  let res: { contentType: string; bytes: Uint8Array };
  try {
    res = await fetchPublic(new URL(safe), { accept: 'image/*', maxBytes, signal });
  } catch (error) {
    throw new Error(`The image could not be loaded: ${error instanceof Error ? error.message : String(error)}`);
  }
  const type = res.contentType.split(';')[0].trim().toLowerCase();
  if (!type.startsWith('image/')) {
    throw new Error(`This link is not an image (${type || 'no content type'}).`);
  }
  return `data:${type};base64,${Buffer.from(res.bytes).toString('base64')}`;
}
