import chalk from 'chalk';

/**
 * --no-color means no colour, not no styles. chalk reads `--no-color` from argv and then drops
 * every style, inverse included, which left the selected row of every table, the palette's choice
 * and the text cursor invisible (NO_COLOR in the environment never did that). Colours are already
 * left out by the theme (useTone), so inverse, bold and underline stay on wherever the terminal has
 * them (not on TERM=dumb).
 */
export function keepStylesWithoutColour(color: boolean, env: Record<string, string | undefined>): void {
  if (!color && chalk.level === 0 && env.TERM !== 'dumb') chalk.level = 1;
}
