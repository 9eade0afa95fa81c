import React from 'react';
import { Box, Text } from 'ink';
import { useTone } from '../../components/theme';
import type { DatabasesStore, MadeToken, TOKEN_EXPIRIES } from '../../state/databases-store';
import { useSelect } from '../../state/store-hooks';
import { formatDateText } from '../../text/time-format';

// one empty list: a selector must not make a new array on every read
const NONE: MadeToken[] = [];

interface Props {
  store: DatabasesStore;
  name: string;
  expiryLabel: typeof TOKEN_EXPIRIES;
  width: number;
  height: number;
}

/** The tokens of one database made from this console; the newest is shown whole, once. */
export function TokensPane({ store, name, expiryLabel, width, height }: Props): React.JSX.Element {
  const tone = useTone();
  const id = useSelect(store, (s) => s.tokensFor);
  const made = useSelect(store, (s) => (id === null ? NONE : (s.made[id] ?? NONE)));
  const expiry = useSelect(store, (s) => s.expiry);
  const error = useSelect(store, (s) => s.tokenError);
  const fresh = made.find((t) => t.token !== null);
  const tokenLines = fresh ? 1 + Math.ceil((fresh.token?.length ?? 0) / Math.max(1, width)) : 0;
  const listRows = Math.max(1, height - 5 - tokenLines - (error ? 1 : 0));
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <Text bold wrap="truncate">{`Tokens of ${name}`}</Text>
      <Text color={tone('muted')} wrap="truncate">
        {`c full-access · o read-only · e expiry: ${expiryLabel[expiry]!.label} · x invalidate all · esc back`}
      </Text>
      <Text color={tone('muted')} wrap="truncate">
        The platform does not list tokens: these are the ones made here. It revokes only all at once.
      </Text>
      {error ? <Text color={tone('error')} wrap="truncate">{`✖ ${error}`}</Text> : null}
      {fresh ? (
        <>
          <Text wrap="truncate">{`new ${fresh.access} token (shown once, copy it now):`}</Text>
          <Text wrap="wrap">{fresh.token}</Text>
        </>
      ) : null}
      <Text> </Text>
      {made.length === 0 ? (
        <Text color={tone('muted')}>no tokens made here yet</Text>
      ) : (
        made
          .slice(0, listRows)
          .map((t, i) => (
            <Text key={i} wrap="truncate">{`${t.access.padEnd(12)} expires ${t.expiresAt ? formatDateText(t.expiresAt, 'dateTime') : 'never'}`}</Text>
          ))
      )}
    </Box>
  );
}
