/** Meaning, not colour: screens say what a value is and the theme picks how it looks. */
export type Tone = 'ok' | 'warn' | 'error' | 'muted' | 'accent' | 'info';
