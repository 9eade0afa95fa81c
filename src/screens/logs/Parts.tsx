import React from 'react';
import { Text } from 'ink';
import { useTone } from '../../components/theme';
import type { Part } from './status-view';

/** Parts joined by `sep` (muted), as separate parts. */
export function joinParts(parts: Part[], sep = ' · '): Part[] {
  const out: Part[] = [];
  parts.forEach((p, i) => {
    if (i > 0) out.push({ text: sep, tone: 'muted' });
    out.push(p);
  });
  return out;
}

/** One line of toned parts, cut at the right edge. */
export function PartsLine({ parts, bold }: { parts: Part[]; bold?: boolean }): React.JSX.Element {
  const tone = useTone();
  if (parts.length === 0) return <Text> </Text>;
  return (
    <Text wrap="truncate" bold={bold}>
      {parts.map((p, i) => (
        <Text key={i} color={tone(p.tone)}>
          {p.text}
        </Text>
      ))}
    </Text>
  );
}
