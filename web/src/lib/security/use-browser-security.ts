import { useEffect } from 'react';
import { startCsrfTokenRotation } from './csrf-token.ts';
import { startSuspiciousActivityMonitor } from './suspicious-activity.ts';

/**
 * The page-wide security measures of product §browser-security, mounted once by the app shell: the CSRF
 * token's rotation (and its prefix in security events) and the suspicious-activity monitor.
 */
export function useBrowserSecurity(): void {
  useEffect(() => {
    const stopRotation = startCsrfTokenRotation();
    const stopMonitor = startSuspiciousActivityMonitor();
    return () => {
      stopMonitor();
      stopRotation();
    };
  }, []);
}
