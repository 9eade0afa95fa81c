import React from 'react';
import { Box, Text } from 'ink';
import type { TextState } from '../keys/text-edit';
import { TextField } from './TextField';
import { fit } from '../text/fit';
import { useTone } from './theme';

export interface PaletteSuggestion {
  name: string;
  aliases: string[];
  summary: string;
  argName?: string;
}

export interface CommandPaletteProps {
  text: TextState;
  suggestions: readonly PaletteSuggestion[];
  selected: number;
  width: number;
  /** Lines for the suggestions (the input line comes on top of these). */
  maxSuggestions: number;
}

export function paletteHeight(suggestionCount: number, maxSuggestions: number): number {
  return 1 + Math.min(suggestionCount, maxSuggestions);
}

/** ":" then the command being typed, with the matching commands under it. */
export function CommandPalette({ text, suggestions, selected, width, maxSuggestions }: CommandPaletteProps): React.JSX.Element {
  const tone = useTone();
  const shown = suggestions.slice(0, maxSuggestions);
  return (
    <Box flexDirection="column" width={width}>
      <Box>
        <Text color={tone('accent')} bold>
          :
        </Text>
        <TextField state={text} width={width - 1} focused />
      </Box>
      {shown.map((s, i) => {
        const name = `${s.name}${s.argName ? ` [${s.argName}]` : ''}`;
        const aliases = s.aliases.join(' ');
        const line = `  ${fit(name, 20)} ${fit(aliases, 18)} ${s.summary}`;
        return (
          <Text key={s.name} inverse={i === selected} color={tone(i === selected ? undefined : 'muted')} wrap="truncate">
            {fit(line, width)}
          </Text>
        );
      })}
    </Box>
  );
}
