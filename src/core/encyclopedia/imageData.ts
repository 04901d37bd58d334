import * as l10n from '@vscode/l10n';
import { webUrl } from '../../shared/links';

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
  const safe = webUrl(url);
  if (!safe) {
    throw new Error(l10n.t('Only http and https images can be shown.'));
  }
  let res: { contentType: string; bytes: Uint8Array };
  try {
    res = await fetchPublic(new URL(safe), { accept: 'image/*', maxBytes, signal });
  } catch (error) {
    throw new Error(
      l10n.t('The image could not be loaded: {0}', error instanceof Error ? error.message : String(error)),
    );
  }
  const type = res.contentType.split(';')[0].trim().toLowerCase();
  if (!type.startsWith('image/')) {
    throw new Error(l10n.t('This link is not an image ({0}).', type || l10n.t('no content type')));
  }
  return `data:${type};base64,${Buffer.from(res.bytes).toString('base64')}`;
}
