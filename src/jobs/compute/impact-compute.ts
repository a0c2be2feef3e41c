/** Placeholder until the impact-session computation lands; a session of this kind fails with this message. */
export function compute(_input: unknown): never {
  throw new Error('impact sessions are not available in this build');
}
