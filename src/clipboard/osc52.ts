/**
 * Copying to the user's clipboard through the terminal (OSC 52), which works over SSH: the
 * terminal on the user's machine sets its clipboard. Inside tmux the sequence is wrapped in a
 * DCS passthrough (every ESC inside doubled) so tmux hands it to the outer terminal; tmux needs
 * `set -g allow-passthrough on` (or `set-clipboard on`, which tmux handles itself).
 */

const ESC = '\x1b';
const BEL = '\x07';

/** OSC 52 "set clipboard" for `text`: ESC ] 52 ; c ; base64 BEL. */
export function osc52(text: string): string {
  return `${ESC}]52;c;${Buffer.from(text, 'utf8').toString('base64')}${BEL}`;
}

/** tmux passthrough: ESC P tmux; <sequence with each ESC doubled> ESC \. */
export function tmuxPassthrough(sequence: string): string {
  return `${ESC}Ptmux;${sequence.split(ESC).join(ESC + ESC)}${ESC}\\`;
}

/** The bytes to write for copying `text`, given the environment (TMUX set = inside tmux). */
export function clipboardSequence(text: string, env: Record<string, string | undefined>): string {
  const seq = osc52(text);
  return env.TMUX ? tmuxPassthrough(seq) : seq;
}
