import React from 'react';
import { Text } from 'ink';
import { useTone } from '../../components/theme';
import type { BackfillProgress } from '../../log-engine/index';
import { backfillBarText } from './backfill-bar';

/** One line while the history of the window is still being read (nothing once it is in). */
export function BackfillBar({ progress, width }: { progress: BackfillProgress | null; width: number }): React.JSX.Element | null {
  const tone = useTone();
  const text = backfillBarText(progress, width);
  return text ? (
    <Text color={tone('info')} wrap="truncate">
      {text}
    </Text>
  ) : null;
}
