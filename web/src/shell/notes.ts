/**
 * The games' notes on legal entries, typed: each game's `annotate.py` declares the note of each kind of action
 * (`NotesJson`, generated as `Notes` in web/src/generated/<game>.ts: action type -> note shape), and
 * `notesReader<Notes>()` gives the game's model its `noteOf(entry, "order")`: the entry's note as that shape when
 * the entry's action is of that type, else undefined.
 *
 * Owns the typed reading of a note only: no game, no drawing.
 */
import type { LegalEntry } from "../generated/protocol";

/** A game's reader of notes: `noteOf(entry, type)` (see the module comment). */
export type NoteReader<N> = <K extends keyof N & string>(e: LegalEntry | null | undefined, type: K) => N[K] | undefined;

export function notesReader<N>(): NoteReader<N> {
  return (e, type) => (e && e.action.type === type ? (e.note as unknown as N[typeof type] | undefined) : undefined);
}
