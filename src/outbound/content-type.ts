export type DataFormat = 'csv' | 'json';

const EXTENSION_FORMATS: [RegExp, DataFormat][] = [
  [/\.csv(\.gz)?$/i, 'csv'],
  [/\.json(\.gz)?$/i, 'json'],
];

/**
 * The format of an imported file: the explicit choice, else the URL path's extension, else the
 * Content-Type header. Undefined when none says; sniffing the content is then the caller's job.
 */
export function guessContentType(
  url: string,
  contentTypeHeader: string | undefined,
  explicit?: DataFormat,
): DataFormat | undefined {
  if (explicit) return explicit;
  const path = pathOf(url);
  const byExtension = EXTENSION_FORMATS.find(([pattern]) => pattern.test(path));
  if (byExtension) return byExtension[1];
  return formatOfMediaType(contentTypeHeader);
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.replace(/[?#].*$/, '');
  }
}

function formatOfMediaType(header: string | undefined): DataFormat | undefined {
  const mediaType = (header ?? '').split(';')[0].trim().toLowerCase();
  if (['text/csv', 'application/csv', 'text/comma-separated-values'].includes(mediaType)) return 'csv';
  if (mediaType === 'application/json' || mediaType === 'text/json' || mediaType.endsWith('+json')) return 'json';
  return undefined;
}
