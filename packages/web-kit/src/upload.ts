import { ApiError, apiErrorOf, reportUnauthorized } from './api.ts';

/** Options of a request whose upload progress is reported. */
export interface UploadOptions {
  method?: string;
  /** Called with the share of the body sent, 0..1. */
  onProgress?: (sent: number) => void;
  signal?: AbortSignal;
}

/**
 * Sends a JSON body with XMLHttpRequest, whose upload events report progress
 * (fetch has none); resolves with the parsed answer, rejects with ApiError as api() does.
 */
export function sendJsonWithProgress<T>(path: string, body: unknown, options: UploadOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(options.method ?? 'POST', path);
    request.setRequestHeader('content-type', 'application/json');
    request.setRequestHeader('accept', 'application/json');
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
    };
    request.upload.onload = () => options.onProgress?.(1);
    request.onload = () => {
      let parsed: unknown = null;
      try {
        parsed = request.responseText ? JSON.parse(request.responseText) : null;
      } catch {
        parsed = null;
      }
      if (request.status >= 200 && request.status < 300) {
        resolve(parsed as T);
        return;
      }
      if (request.status === 401) reportUnauthorized();
      reject(apiErrorOf(request.status, parsed, `${request.status} ${request.statusText || 'error'}`));
    };
    request.onerror = () => reject(new ApiError(0, 'The service could not be reached. Check your connection and try again.', 'network_error', null));
    request.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    options.signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(JSON.stringify(body));
  });
}
