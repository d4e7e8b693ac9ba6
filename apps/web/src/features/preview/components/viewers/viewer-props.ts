/** What every viewer gets. */
export interface ViewerProps {
  path: string;
  name: string;
  size: number;
  /** Called with an error (message key or any) when the bytes cannot be shown. */
  onError: (error: unknown) => void;
}
