/**
 * The shell's palette: the seat colours of the chips, the log and the result (a screen may give its own through
 * `GameScreen.seatColour`). A module of its own so that a game screen can use them without importing the match page.
 *
 * Owns these colours only.
 */

/** Seat colours: the two sides of a duel are cyan and orange (as the boards draw them), then more. */
export const SEAT_COLOURS = ["#3fd0ff", "#ff9a3c", "#7bdc6a", "#c58bff", "#ff6f91", "#f4e04d", "#5fe3c0", "#b0b8c8"];
