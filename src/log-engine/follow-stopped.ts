/** Thrown inside the follow engine to unwind a zone's work once the engine stops. */
export class Stopped extends Error {}
