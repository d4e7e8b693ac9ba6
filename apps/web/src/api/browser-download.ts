/**
 * Hands a download to the browser: a temporary link to `url` is clicked, so the browser
 * fetches the bytes itself and writes them to disk as they arrive (nothing is held in the
 * page). The file name comes from the answer's Content-Disposition.
 */
export function startDownload(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}
