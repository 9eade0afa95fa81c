import React from 'react';
import { Box, Text } from 'ink';
import { TextField } from '../../components/TextField';
import { useTone } from '../../components/theme';
import { zoneLabel } from '../../text/time-format';
import { FILTER_FIELDS, type FilterForm as Form } from '../../state/logs/store';

const LABEL = 18;

/** The server filters, one field each; checked before anything is sent. */
export function FilterForm({ form, width, height }: { form: Form; width: number; height: number }): React.JSX.Element {
  const tone = useTone();
  // label, field, then the hint or the error in what is left
  const field = Math.max(10, Math.min(40, width - LABEL - 30));
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <Text bold wrap="truncate">
        Server filters <Text color={tone('muted')}>(sent with every request; changing them restarts the follow)</Text>
      </Text>
      {FILTER_FIELDS.map((f, i) => {
        const focused = i === form.focus;
        const error = form.errors[f.id];
        return (
          <Box key={f.id} height={1} width={width} overflow="hidden">
            <Box width={LABEL} flexShrink={0}>
              <Text color={focused ? tone('accent') : undefined} bold={focused}>
                {`${focused ? '›' : ' '} ${f.label}`}
              </Text>
            </Box>
            <Box width={field} flexShrink={0}>
              <TextField state={form.fields[f.id]} width={field} focused={focused} />
            </Box>
            <Box width={Math.max(1, width - LABEL - field)} flexShrink={0}>
              <Text wrap="truncate" color={error ? tone('error') : tone('muted')}>
                {error ? ` ✖ ${error}` : ` ${f.hint}`}
              </Text>
            </Box>
          </Box>
        );
      })}
      <Text color={tone('muted')} wrap="truncate">
        {`tab/↓ next field · shift-tab/↑ previous · enter apply · esc cancel · ctrl-u clear a field · times in ${zoneLabel(Date.now())}`}
      </Text>
    </Box>
  );
}
