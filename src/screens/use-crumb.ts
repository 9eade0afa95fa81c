import { useEffect } from 'react';
import { useUiStore } from '../state/store-hooks';
import { useScreenInstance } from './screen-def';
import { terminalSafe } from '../text/terminal-safe';

/**
 * Names this screen visit in the breadcrumb ("logs shop-assets" rather than "logs 1058"); null
 * keeps the default (title and argument). Kept while the visit is on the stack, also under others.
 */
export function useCrumb(label: string | null): void {
  const ui = useUiStore();
  const { key } = useScreenInstance();
  useEffect(() => {
    ui.getState().setCrumb(key, label === null ? null : terminalSafe(label));
  }, [ui, key, label]);
}
