import React, { useMemo, useRef } from 'react';
import { useCopy } from '../clipboard/use-clipboard';
import { maxRecordScroll, RecordOverlay } from '../components/RecordOverlay';
import { PRIORITY } from '../keys/input-router';
import { useInputLayer } from '../keys/input-hooks';
import { contextChain } from '../keys/keymap';
import { useConsole, useUi } from '../state/store-hooks';
import { recordJson, recordLines } from '../text/raw-record';
import { terminalSafe } from '../text/terminal-safe';

/**
 * The raw view (`d` on any table): the record the ui store holds, as pretty JSON with secrets
 * masked (unless the console was started to show them), scrolled with the list keys; `y` copies
 * the JSON shown through OSC 52. Mounted once by the shell; draws nothing while closed.
 */
export function RawRecordView({ width, height }: { width: number; height: number }): React.JSX.Element | null {
  const { stores } = useConsole();
  const ui = stores.deps.ui;
  const showSecrets = stores.deps.settings.showSecrets === true;
  const overlay = useUi((s) => s.overlay);
  const copy = useCopy();
  const record = overlay?.kind === 'record' ? overlay.record : null;
  const json = useMemo(() => (record ? recordJson(record.value, { showSecrets }) : ''), [record, showSecrets]);
  const lines = useMemo(() => (record ? recordLines(json, width) : []), [record, json, width]);
  const live = useRef({ count: lines.length, height, json });
  live.current = { count: lines.length, height, json };

  const s = () => ui.getState();
  const scrollTo = (f: (cur: number, page: number) => number) => {
    const o = s().overlay;
    if (o?.kind !== 'record') return;
    const { count, height: h } = live.current;
    const max = maxRecordScroll(count, h);
    s().scrollRecord(Math.max(0, Math.min(max, f(Math.min(o.scroll, max), Math.max(1, h - 3)))));
  };
  useInputLayer(
    {
      id: 'record',
      priority: PRIORITY.help,
      active: () => s().overlay?.kind === 'record',
      chain: () => contextChain('record'),
    },
    {
      'record.close': () => s().closeOverlay(),
      'record.copy': () => {
        const note = copy(live.current.json, 'the record as JSON');
        s().setStatus(note.text, note.level, 5000);
      },
      'nav.down': () => scrollTo((c) => c + 1),
      'nav.up': () => scrollTo((c) => c - 1),
      'nav.pageDown': () => scrollTo((c, page) => c + page),
      'nav.pageUp': () => scrollTo((c, page) => c - page),
      'nav.top': () => scrollTo(() => 0),
      'nav.bottom': () => scrollTo(() => Number.MAX_SAFE_INTEGER),
    },
  );

  if (overlay?.kind !== 'record' || !record) return null;
  return <RecordOverlay title={terminalSafe(record.title)} lines={lines} scroll={overlay.scroll} masked={!showSecrets} width={width} height={height} />;
}
